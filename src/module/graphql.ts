import type SchemaBuilder from '@pothos/core';
import type { InputObjectRef, ObjectRef } from '@pothos/core';
import type { z } from 'zod';
import type { Actor } from '../domain/auth/actor.js';
import type { DomainEvent } from '../pubsub/events.js';
import type { PubSub } from '../pubsub/pubsub.js';

/** What every resolver receives. `actor()` throws the authentication error when there is no valid credential. */
export interface GraphQLContext {
  actor: () => Actor;
  pubsub: PubSub;
  /** How the operation arrived: over HTTP (subscriptions then stream as server-sent events) or a WebSocket. */
  transport: 'http' | 'websocket';
}

/** The schema's types for Pothos: the context, the JSON scalar, fields non-null unless said. */
export interface AppSchemaTypes {
  Context: GraphQLContext;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}

/** The one schema builder (schema/ makes it, with the zod, input-rules and complexity plugins). */
export type GraphQLBuilder = InstanceType<typeof SchemaBuilder<PothosSchemaTypes.ExtendDefaultTypes<AppSchemaTypes>>>;

/** How `GraphQLKit.input` renders a zod input schema. */
export interface InputTypeOptions {
  /** GraphQL names of nested input types by field (`links_on_page: 'LinksOnPageInput'`); default `<Field>Input`. */
  names?: Record<string, string>;
  /** Fields shown as a list of strings whatever their schema (`remove_css_selectors`: "default" | [...]). */
  stringLists?: readonly string[];
  /** Fields shown as JSON whatever their schema (values whose shape is the client's, like a JSON Schema). */
  json?: readonly string[];
  /** Fields left out of the GraphQL input. */
  omit?: readonly string[];
  description?: string;
}

/** A field's validation for plugin-zod: the resolver receives the parsed (snake_case) value. */
export type ValidateOption = { schema: never };

/**
 * What a module gets to declare its part of the GraphQL schema (`AppModule.graphql`). The
 * builder is Pothos's; the helpers keep inputs and validation on the module's zod schemas, so
 * GraphQL and REST accept the same things and inputs are never written twice.
 *
 * @example
 * graphql: (kit, { notes }) => {
 *   const NoteRef = kit.builder.objectRef<NoteView>('Note').implement({
 *     fields: (t) => ({ id: t.exposeID('id'), text: t.exposeString('text') }),
 *   });
 *   const CreateNote = kit.input(CreateNoteInput, 'CreateNoteInput');
 *   kit.builder.mutationField('createNote', (t) =>
 *     t.field({
 *       type: NoteRef,
 *       args: { input: t.arg({ type: CreateNote, required: true }) },
 *       validate: kit.validate(z.object({ input: kit.fromCamel(CreateNoteInput) })),
 *       resolve: (_, args, ctx) => notes.create(ctx.actor(), kit.parsed<{ input: CreateNoteCommand }>(args).input),
 *     }),
 *   );
 * }
 */
export interface GraphQLKit {
  readonly builder: GraphQLBuilder;
  /** A GraphQL input type from a zod input schema (snake_case keys become camelCase fields); one per name. */
  input(schema: z.ZodType, name: string, options?: InputTypeOptions): InputObjectRef<AppSchemaTypesExtended, unknown>;
  /** Wraps a snake_case zod schema so it parses the camelCase arguments GraphQL receives. */
  fromCamel<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>>;
  /** The `validate` option of a field whose resolver receives the parsed value. */
  validate(schema: z.ZodType): ValidateOption;
  /** The `validate` option of a field whose only argument is `id`, checked as REST checks that id (404 if it cannot exist). */
  validateId(idSchema: z.ZodType): ValidateOption;
  /** The arguments as validation left them (snake_case, defaults applied). */
  parsed<T>(args: unknown): T;
  /** The cost of a paged list field: each item of `limit` (default `defaultPageSize`) counts. */
  pageCost(defaultPageSize: number): PageCost;
  /** Adds an object type to the `TeamEvent` union (the `teamEvents` subscription), for events of `type`. */
  teamEvent<E extends DomainEvent>(ref: ObjectRef<AppSchemaTypesExtended, E>, types: readonly E['type'][]): void;
}

/** A complexity function of plugin-complexity. */
export type PageCost = (args: { limit?: number | null }) => { field: number; multiplier: number };

type AppSchemaTypesExtended = PothosSchemaTypes.ExtendDefaultTypes<AppSchemaTypes>;

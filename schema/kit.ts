import type { ObjectRef } from '@pothos/core';
import type { DomainEvent } from '../src/pubsub/events.js';
import { teamChannel } from '../src/pubsub/events.js';
import type { GraphQLBuilder, GraphQLContext, GraphQLKit } from '../src/module/graphql.js';
import { fromCamel, validateId, validateWith } from './camel-input.js';
import { pageCost } from './cost.js';
import { createInputTypes } from './zod-input.js';

type EventRef = ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<never>, DomainEvent>;

/**
 * The kit modules declare their GraphQL with (`AppModule.graphql`), and what it gathers across
 * modules: the members of the `TeamEvent` union, added with the `teamEvents` subscription by
 * `finish()` once every module has declared its part.
 */
export function createKit(builder: GraphQLBuilder): GraphQLKit & { finish(): void } {
  const inputs = createInputTypes(builder);
  const events: { ref: EventRef; types: readonly string[] }[] = [];
  return {
    builder,
    input: (schema, name, options) => inputs.input(schema, name, options) as never,
    fromCamel,
    validate: validateWith,
    validateId,
    parsed: <T>(args: unknown) => args as T,
    pageCost,
    teamEvent: (ref, types) => void events.push({ ref: ref as unknown as EventRef, types }),
    finish() {
      if (events.length === 0) return;
      const TeamEventRef = builder.unionType('TeamEvent', {
        types: events.map((e) => e.ref) as never,
        resolveType: (event: DomainEvent) => events.find((e) => e.types.includes(event.type))?.ref as never,
      });
      builder.subscriptionField('teamEvents', (t) =>
        t.field({
          type: TeamEventRef,
          description: 'Live events of the caller’s team, from every process sharing the database.',
          subscribe: (_: unknown, __: unknown, ctx: GraphQLContext) =>
            ctx.pubsub.subscribe(teamChannel(ctx.actor().teamId)),
          resolve: (event: DomainEvent) => event,
        } as never),
      );
    },
  };
}

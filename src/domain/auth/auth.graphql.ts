import type { GraphQLKit } from '../../module/graphql.js';
import type { ApiKeyEvent } from '../../pubsub/events.js';
import type { Actor } from './actor.js';
import type { ApiKey } from './api-key.entity.js';
import { CreateApiKeyInput, KeyIdParams } from './api-key.schema.js';
import type { ApiKeyService } from './api-key.service.js';

const epoch = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/** The caller, the team's API keys, and their events over GraphQL. */
export function authGraphQL(kit: GraphQLKit, apiKeys: ApiKeyService): void {
  const { builder } = kit;

  const ApiKeyRef = builder.objectRef<ApiKey & { secret?: string }>('ApiKey').implement({
    description: 'An API key of the team. The secret is only returned by createApiKey.',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      prefix: t.exposeString('prefix', { description: 'The first characters of the key.' }),
      created: t.int({ resolve: (k) => epoch(k.createdAt)! }),
      lastUsedAt: t.int({ nullable: true, resolve: (k) => epoch(k.lastUsedAt) }),
      revokedAt: t.int({ nullable: true, resolve: (k) => epoch(k.revokedAt) }),
      key: t.string({
        nullable: true,
        description: 'The secret; only in the createApiKey result.',
        resolve: (k) => k.secret ?? null,
      }),
    }),
  });

  const ApiKeyEventRef = builder.objectRef<ApiKeyEvent>('ApiKeyEvent').implement({
    description: 'An API key of the team was created or revoked.',
    fields: (t) => ({
      type: t.exposeString('type', { description: '`api_key.created` or `api_key.revoked`.' }),
      keyId: t.exposeID('keyId'),
      name: t.exposeString('name'),
      at: t.exposeFloat('at', { description: 'Epoch milliseconds.' }),
    }),
  });
  kit.teamEvent(ApiKeyEventRef, ['api_key.created', 'api_key.revoked']);

  const ActorRef = builder.objectRef<Actor>('Actor').implement({
    fields: (t) => ({
      teamId: t.exposeID('teamId'),
      via: t.exposeString('via'),
      keyId: t.exposeString('keyId', { nullable: true }),
      subject: t.exposeString('subject', { nullable: true }),
    }),
  });

  builder.queryFields((t) => ({
    me: t.field({ type: ActorRef, description: 'The caller.', resolve: (_, __, ctx) => ctx.actor() }),
    apiKeys: t.field({
      type: [ApiKeyRef],
      description: 'API keys of the team, newest first.',
      resolve: (_, __, ctx) => apiKeys.listKeys(ctx.actor().teamId),
    }),
  }));

  builder.mutationFields((t) => ({
    createApiKey: t.field({
      type: ApiKeyRef,
      args: { name: t.arg.string({ required: false }) },
      validate: {
        schema: CreateApiKeyInput.extend({
          name: CreateApiKeyInput.shape.name.nullish().transform((v) => v ?? 'unnamed'),
        }),
      },
      resolve: async (_, args, ctx) => {
        const { key, secret } = await apiKeys.createKey(ctx.actor().teamId, args.name as string);
        return Object.assign(key, { secret });
      },
    }),
    revokeApiKey: t.field({
      type: ApiKeyRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(KeyIdParams.shape.key_id),
      resolve: (_, args, ctx) => apiKeys.revokeKey(ctx.actor().teamId, String(args.id)),
    }),
  }));
}

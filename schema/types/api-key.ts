import { CreateApiKeyInput, KeyIdParams } from '../../src/domain/auth/api-key.schema.js';
import type { ApiKey } from '../../src/domain/auth/api-key.entity.js';
import { builder } from '../builder.js';
import { validateId } from '../camel-input.js';

const ApiKeyRef = builder.objectRef<ApiKey & { secret?: string }>('ApiKey').implement({
  description: 'An API key of the team. The secret is only returned by createApiKey.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key.' }),
    created: t.int({ resolve: (k) => Math.floor(k.createdAt.getTime() / 1000) }),
    lastUsedAt: t.int({
      nullable: true,
      resolve: (k) => (k.lastUsedAt ? Math.floor(k.lastUsedAt.getTime() / 1000) : null),
    }),
    revokedAt: t.int({
      nullable: true,
      resolve: (k) => (k.revokedAt ? Math.floor(k.revokedAt.getTime() / 1000) : null),
    }),
    key: t.string({
      nullable: true,
      description: 'The secret; only in the createApiKey result.',
      resolve: (k) => k.secret ?? null,
    }),
  }),
});

const ActorRef = builder
  .objectRef<{ teamId: string; via: string; keyId?: string; subject?: string }>('Actor')
  .implement({
    fields: (t) => ({
      teamId: t.exposeID('teamId'),
      via: t.exposeString('via'),
      keyId: t.string({ nullable: true, resolve: (a) => a.keyId ?? null }),
      subject: t.string({ nullable: true, resolve: (a) => a.subject ?? null }),
    }),
  });

builder.queryFields((t) => ({
  me: t.field({ type: ActorRef, description: 'The caller.', resolve: (_, __, ctx) => ctx.actor() }),
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: 'API keys of the team, newest first.',
    resolve: (_, __, ctx) => ctx.services.apiKeys.listKeys(ctx.actor().teamId),
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
      const { key, secret } = await ctx.services.apiKeys.createKey(ctx.actor().teamId, args.name as string);
      return Object.assign(key, { secret });
    },
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(KeyIdParams.shape.key_id),
    resolve: (_, args, ctx) => ctx.services.apiKeys.revokeKey(ctx.actor().teamId, String(args.id)),
  }),
}));

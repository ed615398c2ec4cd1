import { z } from 'zod';
import { CreateApiKeyInput, KeyIdParams } from './api-key.schema.js';
import { ApiKeyObject, presentApiKey } from './api-key.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { ApiKeyService } from './api-key.service.js';

const tags = ['API keys'];

/** API keys of the caller's team (extension: the spec manages keys in a dashboard). */
export function apiKeyRoutes({ apiKeys }: { apiKeys: ApiKeyService }) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/api-keys',
      operationId: 'listApiKeys',
      summary: 'List API keys',
      tags,
      responses: {
        200: {
          description: 'The team’s keys, newest first (secrets are never shown again).',
          schema: z.object({ object: z.literal('list'), data: z.array(ApiKeyObject) }),
        },
      },
      handler: async ({ actor }) => ({
        object: 'list',
        data: (await apiKeys.listKeys(actor.teamId)).map((k) => presentApiKey(k)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/api-keys',
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description: 'The response carries the secret in `key`; it is shown only this once.',
      tags,
      body: CreateApiKeyInput,
      responses: { 201: { description: 'The new key, with its secret.', schema: ApiKeyObject } },
      handler: async ({ actor, body }) => {
        const { key, secret } = await apiKeys.createKey(actor.teamId, body.name);
        return presentApiKey(key, secret);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/api-keys/{key_id}',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      tags,
      params: KeyIdParams,
      responses: {
        200: { description: 'The revoked key.', schema: ApiKeyObject },
        404: { description: 'No such key in this team.' },
      },
      handler: async ({ actor, params }) => presentApiKey(await apiKeys.revokeKey(actor.teamId, params.key_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/me',
      operationId: 'whoAmI',
      summary: 'Who am I',
      description: 'The team and credential of the request; handy to check a key.',
      tags,
      responses: {
        200: {
          description: 'The caller.',
          schema: z.object({
            object: z.literal('actor'),
            team_id: z.string(),
            via: z.enum(['api_key', 'jwt']),
            key_id: z.string().nullable(),
            subject: z.string().nullable(),
          }),
        },
      },
      handler: ({ actor }) => ({
        object: 'actor',
        team_id: actor.teamId,
        via: actor.via,
        key_id: actor.keyId ?? null,
        subject: actor.subject ?? null,
      }),
    }),
  ];
}

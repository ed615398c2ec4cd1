import { z } from 'zod';
import type { ApiKey } from './api-key.entity.js';
import { epochSeconds } from '../shared/time.js';

export const ApiKeyObject = z
  .object({
    id: z.string(),
    object: z.literal('api_key'),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart.'),
    created: z.number().int(),
    last_used_at: z.number().int().nullable(),
    revoked_at: z.number().int().nullable(),
    key: z.string().optional().describe('The secret; present only in the creation response.'),
  })
  .meta({ id: 'ApiKey' });

export function presentApiKey(key: ApiKey, secret?: string): z.output<typeof ApiKeyObject> {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    prefix: key.prefix,
    created: epochSeconds(key.createdAt),
    last_used_at: key.lastUsedAt ? epochSeconds(key.lastUsedAt) : null,
    revoked_at: key.revokedAt ? epochSeconds(key.revokedAt) : null,
    ...(secret ? { key: secret } : {}),
  };
}

import { z } from 'zod';
import { resourceId } from '../../validation.js';

export const CreateApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).default('unnamed').describe('A label to tell keys apart.'),
});

export const KeyIdParams = z.object({ key_id: resourceId('api_key', 'API key') });

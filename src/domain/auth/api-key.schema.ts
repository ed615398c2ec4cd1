import { z } from 'zod';

export const CreateApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).default('unnamed').describe('A label to tell keys apart.'),
});

export const KeyIdParams = z.object({ key_id: z.string().min(1).max(100) });

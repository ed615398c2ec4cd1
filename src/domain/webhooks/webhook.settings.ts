import { z } from 'zod';
import { bool, int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The webhooks module's settings (src/config.ts reads them with the core's). */
export const WEBHOOK_SETTINGS = {
  WEBHOOK_RETRY_SCALE: {
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { error: 'expected a number' })
      .transform(Number)
      .pipe(z.number().min(0).max(100)),
    default: '1',
    doc: 'Factor on the webhook retry schedule (2, 4, 7, 15 min); 0.001 makes it seconds for tests.',
  },
  WEBHOOK_TIMEOUT_MS: { schema: int(100, 120_000), default: '30000', doc: 'A receiver must answer within this.' },
  WEBHOOK_ALLOW_HTTP: {
    schema: bool,
    default: 'false',
    doc: 'Accept plain http:// webhook URLs (development); by default they must be https.',
  },
} satisfies SettingsTable;

export interface WebhookSettings {
  retryScale: number;
  timeoutMs: number;
  allowHttp: boolean;
}

export function webhookSettings(v: ParsedOf<typeof WEBHOOK_SETTINGS>): WebhookSettings {
  return { retryScale: v.WEBHOOK_RETRY_SCALE, timeoutMs: v.WEBHOOK_TIMEOUT_MS, allowHttp: v.WEBHOOK_ALLOW_HTTP };
}

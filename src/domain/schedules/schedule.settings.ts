import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The schedules module's settings (src/config.ts reads them with the core's). */
export const SCHEDULE_SETTINGS = {
  SCHEDULE_FIRE_CONCURRENCY: {
    schema: int(0, 1000),
    default: '100',
    doc: 'Schedule firings one worker process makes at once (0: this process fires none). Firings claimed together begin and are recorded together, so more at once means fewer, larger transactions when many fall due at the same minute. A firing holds a database connection only while its group is recorded, so this may far exceed DATABASE_POOL_SIZE (lease renewals have a connection of their own).',
  },
  SCHEDULE_URL_TIMEOUT_MS: {
    schema: int(1000, 300_000),
    default: '30000',
    doc: 'Time a schedule’s call of a URL may take (connect to the end of the first 1 KB of the answer).',
  },
} satisfies SettingsTable;

export interface ScheduleSettings {
  fireConcurrency: number;
  urlTimeoutMs: number;
}

export function scheduleSettings(v: ParsedOf<typeof SCHEDULE_SETTINGS>): ScheduleSettings {
  return { fireConcurrency: v.SCHEDULE_FIRE_CONCURRENCY, urlTimeoutMs: v.SCHEDULE_URL_TIMEOUT_MS };
}

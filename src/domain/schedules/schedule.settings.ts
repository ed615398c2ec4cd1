import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The schedules module's settings (src/config.ts reads them with the core's). */
export const SCHEDULE_SETTINGS = {
  SCHEDULE_FIRE_CONCURRENCY: {
    schema: int(0, 1000),
    default: '16',
    doc: 'Schedule firings one worker process makes at once (0: this process fires none). A firing holds a database connection only while it records its run, so this may exceed DATABASE_POOL_SIZE when calls are slow; far above it, firings queue for connections ahead of lease renewals, and a run whose lease lapses is taken over (its endpoint called again).',
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

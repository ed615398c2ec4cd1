import { z } from 'zod';
import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The monitors module's settings (src/config.ts reads them with the core's). */
export const MONITOR_SETTINGS = {
  MONITOR_THREADS: {
    schema: int(0, 64),
    default: '1',
    doc: 'Monitor runner threads per worker process (0: this process runs no monitor runs).',
  },
  MONITOR_RUNS_PER_THREAD: {
    schema: int(1, 256),
    default: '16',
    doc: 'Monitor runs (and provisionings) one runner thread works on at once.',
  },
  MONITOR_MIN_INTERVAL_S: {
    schema: int(1, 86_400),
    default: '600',
    doc: 'Least time between two scheduled runs of a monitor (seconds); 10 minutes, as the public API.',
  },
  MONITOR_SMTP_URL: {
    schema: z.string().max(2000),
    default: '',
    doc: 'SMTP server for email channels (`smtp://user:pass@host:587`, `smtps://…`); empty: email channels are refused.',
  },
  MONITOR_SMTP_FROM: {
    schema: z.string().max(500),
    default: 'Gleaner monitors <monitors@localhost>',
    doc: 'From address of monitor emails.',
  },
  MONITOR_CHANNEL_MAX_FAILURES: {
    schema: int(1, 100),
    default: '3',
    doc: 'Notifications a channel may fail in a row (each after its retries) before the monitor stops using it and reports it.',
  },
  MONITOR_NOTIFY_RETRY_MS: {
    schema: int(1, 3_600_000),
    default: '30000',
    doc: 'Wait before the first retry of a failed Slack or email notification; doubles each attempt (4 attempts).',
  },
} satisfies SettingsTable;

export interface MonitorSettings {
  threads: number;
  runsPerThread: number;
  minIntervalMs: number;
  smtpUrl: string | null;
  smtpFrom: string;
  channelMaxFailures: number;
  notifyRetryMs: number;
}

export function monitorSettings(v: ParsedOf<typeof MONITOR_SETTINGS>): MonitorSettings {
  return {
    threads: v.MONITOR_THREADS,
    runsPerThread: v.MONITOR_RUNS_PER_THREAD,
    minIntervalMs: v.MONITOR_MIN_INTERVAL_S * 1000,
    smtpUrl: v.MONITOR_SMTP_URL.trim() || null,
    smtpFrom: v.MONITOR_SMTP_FROM,
    channelMaxFailures: v.MONITOR_CHANNEL_MAX_FAILURES,
    notifyRetryMs: v.MONITOR_NOTIFY_RETRY_MS,
  };
}

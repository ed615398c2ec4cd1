import { pino, type Logger } from 'pino';
import type { AppConfig } from './config.js';

export type { Logger };

/** JSON logs on stdout; `LOG_LEVEL` decides how much. Request logs carry `req_id`. */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: config.logLevel,
    base: { pid: process.pid, ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: ['req.headers.authorization', 'authorization', '*.authorization'], censor: '[redacted]' },
  });
}

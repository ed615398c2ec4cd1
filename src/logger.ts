import type { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';
import type { AppConfig } from './config.js';

export type { Logger };

/**
 * Logs on stdout: one JSON object a line, or one readable line each on a terminal (LOG_FORMAT);
 * `LOG_LEVEL` decides how much. Request logs carry `req_id`. `destination` is for tests.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel'> & Partial<Pick<AppConfig, 'log'>>,
  bindings: Record<string, unknown> = {},
  destination?: Writable,
): Logger {
  const options = {
    level: config.logLevel,
    base: { pid: process.pid, ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: ['req.headers.authorization', 'authorization', '*.authorization'], censor: '[redacted]' },
  };
  if (config.log?.format !== 'pretty') return destination ? pino(options, destination) : pino(options);
  return pino(options, pretty(config.log.color, destination));
}

/**
 * Time, level and message first, the fields after them on the same line (errors' stacks below).
 * Synchronous like pino's own stdout: no transport thread, and nothing lost when the process exits.
 */
function pretty(color: boolean, destination?: Writable): DestinationStream {
  return prettyStream({
    sync: true,
    colorize: color,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    ...(destination ? { destination } : {}),
  });
}

import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../../src/logger.js';

/** A real pino logger whose JSON lines are kept in memory for assertions. */
export function captureLogs(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

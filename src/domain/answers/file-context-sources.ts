import type { Actor } from '../auth/actor.js';
import type { FileService } from '../files/file.service.js';
import type { AnswerContextSources } from './answer-context.js';

/**
 * `context_file_ids` read from the files module: completed `purpose: "context"` files of the
 * team, as `FileService.usable` checks them (404 `file_not_found` otherwise, another team's
 * included; 400 `invalid_file_purpose`, `file_not_completed`, `file_too_large` past `maxBytes`).
 * The JSON is read as `key: value` text (`jsonAsText`), and each file is cited by its id.
 *
 * @example
 * const context = createFileContextSources(ctx.use(filesModule).files, settings.maxBytes);
 */
export function createFileContextSources(files: FileService, maxBytes: number): AnswerContextSources {
  const actorOf = (teamId: string): Actor => ({ teamId, via: 'api_key' });
  const use = { maxBytes, field: 'context_file_ids' };
  return {
    async check(teamId, ids) {
      for (const id of ids) await files.usable(actorOf(teamId), id, { ...use, purpose: 'context' });
    },
    async read(teamId, ids, signal) {
      const out = [];
      for (const id of ids) {
        signal.throwIfAborted();
        const text = await files.readContextText(actorOf(teamId), id, use);
        out.push({ source: id, text: jsonAsText(text) });
      }
      return out;
    },
  };
}

/**
 * A context file's JSON as text the ranking and the extractor read well: `key: value` lines
 * (keys as words: `opening_hours` → `opening hours`),
 * nested objects under `#` headings (deeper levels deeper), lists of scalars on one line,
 * items of lists of objects as blocks of their own. Not JSON: as it is.
 */
export function jsonAsText(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const lines: string[] = [];
  write(value, null, 1, lines);
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const isScalar = (v: unknown) => v === null || typeof v !== 'object';
const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `opening_hours`, `openingHours` → `opening hours`: what the label rules read as a label. */
const label = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim() || key;

function write(value: unknown, rawKey: string | null, depth: number, lines: string[]): void {
  const key = rawKey === null ? null : label(rawKey);
  if (isScalar(value)) {
    lines.push(key === null ? scalar(value) : `${key}: ${scalar(value)}`);
  } else if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      lines.push(key === null ? value.map(scalar).join(', ') : `${key}: ${value.map(scalar).join(', ')}`);
      return;
    }
    if (key !== null) lines.push('', `${'#'.repeat(Math.min(depth, 6))} ${key}`, '');
    for (const item of value) {
      write(item, null, depth + 1, lines);
      lines.push('');
    }
  } else {
    if (key !== null) lines.push('', `${'#'.repeat(Math.min(depth, 6))} ${key}`, '');
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) write(v, k, depth + 1, lines);
  }
}

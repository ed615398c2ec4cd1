import type { FileService } from '../files/file.service.js';
import type { AnswerContextSources, ContextSource } from './answer-context.js';

/**
 * Context files for answers, read from the files module: each id must be a completed `context`
 * file of the team (404 otherwise, another team's too), at most `maxBytes` each. Checked when
 * the answer is created, read when it runs; texts come back in the ids' order, the JSON written
 * out as `label: value` lines (contextFileText) so passages rank and the extractor reads them
 * like a page's text.
 *
 * @example
 * const context = fileContextSources(ctx.use(filesModule).files, settings.maxBytes);
 */
export function fileContextSources(files: FileService, maxBytes: number): AnswerContextSources {
  const actorOf = (teamId: string) => ({ teamId, via: 'api_key' as const });
  return {
    async check(teamId, ids) {
      for (const id of ids) await files.checkContextFile(actorOf(teamId), id, { maxBytes });
    },
    async read(teamId, ids, signal): Promise<ContextSource[]> {
      const sources: ContextSource[] = [];
      for (const id of ids) {
        signal.throwIfAborted();
        const raw = await files.readContextText(actorOf(teamId), id, { maxBytes });
        sources.push({ source: id, text: contextFileText(raw) });
      }
      return sources;
    },
  };
}

/**
 * A context file's JSON as text: a string is itself; an object's scalar members become
 * `label: value` lines (keys with `_`/`-` read as words) and nested members a `label:` line
 * followed by their own lines; array elements are paragraphs. Text that is not JSON (a file
 * completes only when it is, so this is defensive) comes back unchanged.
 *
 * @example
 * contextFileText('{"plan":"Pro","price_per_month":"49 EUR"}'); // 'plan: Pro\nprice per month: 49 EUR'
 */
export function contextFileText(raw: string): string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw;
  }
  const lines: string[] = [];
  write(value, lines);
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function write(value: unknown, lines: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      write(item, lines);
      lines.push('');
    }
    return;
  }
  if (typeof value === 'object') {
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
      const label = key.replace(/[_-]+/g, ' ').trim();
      if (member === null || typeof member !== 'object') {
        if (member !== null && member !== undefined && member !== '') lines.push(`${label}: ${String(member)}`);
        continue;
      }
      lines.push('', `${label}:`);
      write(member, lines);
      lines.push('');
    }
    return;
  }
  lines.push(String(value));
}

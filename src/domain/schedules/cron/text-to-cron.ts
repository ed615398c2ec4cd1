import { describeCron } from './cron-description.js';
import { parseCronExpression } from './cron-expression.js';
import { invalidField } from './field-error.js';
import { DAY_CLAUSES } from './text-day-clauses.js';
import { buildCron, emptyDraft, refuse, TextRefusal, type Draft } from './text-draft.js';
import { BARE_TIME_CLAUSE, TIME_CLAUSES, type Clause } from './text-time-clauses.js';
import { normalizeText } from './text-vocabulary.js';

const CLAUSES = [...TIME_CLAUSES, ...DAY_CLAUSES, BARE_TIME_CLAUSE];
const SEPARATOR = /^(?:,\s*|(?:and|then)(?:\s+|$))/;
const MAX_LENGTH = 300;
const EXAMPLES = '"every 15 minutes", "every weekday at 9am", "on the first of every month at noon"';

/**
 * What the deterministic parser made of a schedule text: an EventBridge cron expression, or
 * why not. `not_understood`: some words match no phrase it knows (a model may do better);
 * `refused`: it understood, but cron cannot express it exactly or the text contradicts
 * itself (a model would only approximate, so it is not asked).
 */
export type TextParse =
  { ok: true; cronExpression: string } | { ok: false; reason: 'not_understood' | 'refused'; message: string };

/**
 * Turns the phrases people write into a cron expression, without a model: intervals (`every
 * 15 minutes`, `hourly`, `every 2 hours`, `twice a day`), times (`at 9am`, `18:30`, `noon`),
 * weekdays (`every monday and thursday`, `weekdays`, `mon-fri`), days of the month (`on the
 * 1st and 15th`, `last day of the month`, `first monday of the month`), months, quarters,
 * years, and hour windows (`every hour between 9 and 17`). Unstated times are midnight;
 * `weekly` is Sunday, `monthly` the 1st, `yearly` 1 January; `twice a day` is 00:00 and
 * 12:00. The time zone is the caller's. Every word must belong to a recognised phrase.
 *
 * @example
 * parseScheduleText('every weekday at 9am'); // { ok: true, cronExpression: '0 9 ? * MON-FRI *' }
 * parseScheduleText('every other day'); // { ok: false, reason: 'refused', message: 'every 2 days cannot …' }
 */
export function parseScheduleText(text: string): TextParse {
  const normalized = normalizeText(text);
  if (normalized === '') return { ok: false, reason: 'not_understood', message: 'the text is empty' };
  const draft = emptyDraft();
  const kinds: Clause['kind'][] = [];
  let rest = normalized;
  try {
    while (rest !== '') {
      const separator = SEPARATOR.exec(rest);
      if (separator) {
        rest = rest.slice(separator[0].length);
        continue;
      }
      const applied = applyFirstClause(rest, draft);
      if (applied === null) {
        return { ok: false, reason: 'not_understood', message: `could not understand "${rest}"` };
      }
      noteKind(kinds, applied.kind);
      rest = rest.slice(applied.length).trimStart();
    }
    return { ok: true, cronExpression: buildCron(draft) };
  } catch (err) {
    if (err instanceof TextRefusal) return { ok: false, reason: 'refused', message: err.message };
    throw err;
  }
}

/** Applies the first clause that matches the start of `rest`: its kind and the length it read; null when none did. */
function applyFirstClause(rest: string, draft: Draft): { kind: Clause['kind']; length: number } | null {
  for (const { pattern, apply, kind } of CLAUSES) {
    const match = pattern.exec(rest);
    if (match && apply(match, draft) !== false) return { kind, length: match[0].length };
  }
  return null;
}

/**
 * `every monday at 9am and every friday at 5pm` pairs times with days, which one cron
 * expression cannot (it would run at both times on both days): days, then times, then days
 * again (or times, days, times) is refused.
 */
function noteKind(kinds: Clause['kind'][], kind: Clause['kind']): void {
  if (kind === undefined || kinds[kinds.length - 1] === kind) return;
  if (kinds.includes(kind)) refuse('different times on different days need one schedule each');
  kinds.push(kind);
}

/**
 * The model fallback: asked only for text the parser does not understand, it answers with a
 * 6-field EventBridge cron expression, or null when it cannot. The model provider that
 * implements it is configured elsewhere; its errors propagate.
 *
 * @example
 * const fromModel: CronFromText = async (text) => (await provider.complete(prompt(text))).trim() || null;
 */
export type CronFromText = (text: string) => Promise<string | null>;

export interface TextConversion {
  /** The EventBridge expression, normalized as {@link parseCronExpression} returns it. */
  cronExpression: string;
  /** What it means, in English ("At 09:00 AM, Monday through Friday"). */
  description: string;
  source: 'parser' | 'model';
}

export interface TextConversionOptions {
  /** Asked when the parser does not understand the text; absent when no model is configured. */
  model?: CronFromText;
  /** The request field named in errors; default `text`. */
  field?: string;
}

/**
 * `text` → cron expression and description: the parser first, then the model when one is
 * configured and the parser did not understand. A 400 `validation_error` naming the field when
 * the text is refused, understood by neither, or the model's answer is not a valid expression.
 */
export async function convertScheduleText(text: unknown, options: TextConversionOptions = {}): Promise<TextConversion> {
  const field = options.field ?? 'text';
  if (typeof text !== 'string' || text.trim() === '') throw invalidField(field, 'must be a non-empty string');
  if (text.length > MAX_LENGTH) throw invalidField(field, `is longer than ${MAX_LENGTH} characters`);
  const parsed = parseScheduleText(text);
  if (parsed.ok) return conversion(parsed.cronExpression, 'parser', field);
  if (parsed.reason === 'refused') throw invalidField(field, parsed.message);
  const answer = options.model ? await options.model(text) : null;
  if (answer === null || answer.trim() === '') {
    const tried = options.model ? 'nor by the model' : 'and no model is configured';
    throw invalidField(
      field,
      `not understood (${parsed.message}) by the parser ${tried}; try phrases like ${EXAMPLES}`,
    );
  }
  try {
    return conversion(answer, 'model', field);
  } catch {
    throw invalidField(
      field,
      `not understood (${parsed.message}); the model answered "${answer.slice(0, 100)}", which is not a valid cron expression`,
    );
  }
}

function conversion(expression: string, source: TextConversion['source'], field: string): TextConversion {
  const cron = parseCronExpression(expression, field);
  return { cronExpression: cron.expression, description: describeCron(cron), source };
}

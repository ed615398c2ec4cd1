import { extractFromPassages, formatExtractionWarning } from '../../extraction/index.js';
import { pageTokenBudget } from '../../models/context-budget.js';
import type { ModelProvider } from '../../models/model-provider.js';
import { generateObject } from '../../models/structured-output.js';
import { rankPassages, type RankedPassage } from '../../text/bm25.js';
import { splitPassages, type Passage } from '../../text/passages.js';
import { estimateTokens } from '../../text/token-estimate.js';
import type { AnswerShape } from './answer-shape.js';

/** A document an answer reads: a web page's markdown or a context file's text. */
export interface AnswerDocument {
  source: string;
  text: string;
}

export interface ComposedAnswer {
  /** The JSON value, shaped like the request's `json_format`. */
  value: unknown;
  /** Sources the answer drew on, most relevant first. */
  sources: string[];
  warnings: string[];
}

/** Passages the deterministic extractor reads at most (best first). */
const EXTRACTOR_PASSAGES = 40;
/** A passage quoted as the answer itself (no model, `{"answer": …}` forms) is cut to this. */
const QUOTED_ANSWER_CHARS = 1500;
/** Share of the prompt budget passages may fill (the estimate is rough). */
const SAFETY = 0.85;

const SYSTEM = [
  'You answer a task using only the numbered sources given (web pages and files).',
  'Use null for anything the sources do not say; never invent values.',
  'Copy names, prices, dates and numbers exactly as the sources write them.',
].join(' ');

/**
 * The passages of every document, ranked together by BM25 for the task and the shape's keys,
 * best first; then the passages that share no word with them, in document order (the sources
 * were chosen for the task: what is left of them may still say what the words missed).
 */
export function rankedPassages(documents: readonly AnswerDocument[], task: string, shape: AnswerShape): Passage[] {
  const passages = documents.flatMap((d) => splitPassages(d.text, { source: d.source, maxChars: 1000 }));
  const ranked: RankedPassage[] = rankPassages(passages, `${task}\n${shape.queryText}`);
  const matched = new Set(ranked.map((p) => `${p.source}\u0000${p.index}`));
  return [...ranked, ...passages.filter((p) => !matched.has(`${p.source}\u0000${p.index}`))];
}

/** Asks the model for the answer with the best passages that fit its context; 502/504 pass through. */
export async function composeWithModel(
  provider: ModelProvider,
  task: string,
  shape: AnswerShape,
  passages: readonly Passage[],
  options: { signal: AbortSignal; onToken?: () => void },
): Promise<ComposedAnswer> {
  const intro = shape.description ? `${task}\n\nWanted data: ${shape.description}` : task;
  const budget = pageTokenBudget(provider.limits, [SYSTEM, intro, JSON.stringify(shape.schema)]) * SAFETY;
  const chosen: Passage[] = [];
  let used = 0;
  for (const passage of passages) {
    const cost = estimateTokens(passage.text) + estimateTokens(passage.heading ?? '') + 16;
    if (used + cost > budget) continue;
    chosen.push(passage);
    used += cost;
  }
  const sources = unique(chosen.map((p) => p.source));
  const { object } = await generateObject(provider, {
    schema: shape.schema,
    schemaField: 'json_format',
    schemaName: 'answer',
    system: SYSTEM,
    prompt: prompt(intro, sources, chosen),
    signal: options.signal,
  });
  return { value: object, sources, warnings: [] };
}

/**
 * Without a model: the deterministic extractor over the best passages (`label: value` lines,
 * tables, lists), and for the `{"answer": …}` forms, when no rule filled it, the best passage
 * itself quoted as the answer. The warning says which keys came from where.
 */
export function composeWithoutModel(task: string, shape: AnswerShape, passages: readonly Passage[]): ComposedAnswer {
  const best = passages.slice(0, EXTRACTOR_PASSAGES);
  const result = extractFromPassages(
    best.map((p) => ({ text: p.heading ? `${p.heading}\n${p.text}` : p.text, url: p.source })),
    { schema: shape.resolved, prompt: task },
  );
  let value = result.data;
  let sources = result.sources;
  let warning = formatExtractionWarning(result, 'no model is configured');
  const top = best[0];
  const answerEmpty =
    shape.form !== 'object' &&
    value !== null &&
    typeof value === 'object' &&
    ((value as Record<string, unknown>).answer ?? null) === null;
  if (answerEmpty && top) {
    value = { answer: quotable(top.text).slice(0, QUOTED_ANSWER_CHARS) };
    sources = [top.source];
    warning =
      'json_content was filled without a model (no model is configured): `answer` quotes the passage of the sources that matches the task best.';
  }
  return { value, sources, warnings: [warning] };
}

/** A passage as an answer: without the heading lines it starts with (unless that is all it has). */
function quotable(text: string): string {
  const body = text.replace(/^(?:\s{0,3}#{1,6}\s[^\n]*\n+)+/, '').trim();
  return body || text.trim();
}

function prompt(task: string, sources: string[], passages: readonly Passage[]): string {
  if (passages.length === 0) return `Task: ${task}\n\nNo source could be read. Answer with null values.`;
  const parts = sources.map((source, i) => {
    const text = passages
      .filter((p) => p.source === source)
      .sort((a, b) => a.index - b.index)
      .map((p) => (p.heading && !/^\s{0,3}#/.test(p.text) ? `(${p.heading})\n${p.text}` : p.text))
      .join('\n\n[…]\n\n');
    return `Source [${i + 1}] ${source}\n${text}`;
  });
  return `Task: ${task}\n\n${parts.join('\n\n---\n\n')}\n\nAnswer the task from these sources only.`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

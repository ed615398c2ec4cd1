import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The answers module's settings (src/config.ts reads them with the core's). */
export const ANSWER_SETTINGS = {
  ANSWER_WAIT_MS: {
    schema: int(0, 300_000),
    default: '30000',
    doc: 'How long POST /v1/answers waits for the answer; after that it returns `status: in_progress` and the answer completes on the job queue (GET /v1/answers/{id}).',
  },
  ANSWER_TIME_BUDGET_MS: {
    schema: int(1000, 900_000),
    default: '120000',
    doc: 'Time one answer may take in all (search, reading its sources, the model); past it, it fails with request_timeout.',
  },
  ANSWER_MAX_SOURCES: {
    schema: int(1, 20),
    default: '5',
    doc: 'Sources (search results or given URLs) one answer reads at most, in parallel.',
  },
  ANSWER_SOURCE_TIMEOUT_MS: {
    schema: int(1000, 300_000),
    default: '20000',
    doc: 'Time to read one source; a source not read by then is left out.',
  },
  ANSWER_MAX_BYTES: {
    schema: int(10_000, 50_000_000),
    default: '2000000',
    doc: 'Text (bytes of markdown) read from all of an answer’s sources together; the rest of a source past it is left out.',
  },
  ANSWER_API_CONCURRENCY: {
    schema: int(0, 1000),
    default: '16',
    doc: 'Answers one API process runs itself at once while their clients wait; past it, a new answer goes to the worker lanes and POST /v1/answers returns `status: in_progress` at once (0: the API runs none).',
  },
} satisfies SettingsTable;

export interface AnswerSettings {
  waitMs: number;
  timeBudgetMs: number;
  maxSources: number;
  sourceTimeoutMs: number;
  maxBytes: number;
  apiConcurrency: number;
}

export function answerSettings(v: ParsedOf<typeof ANSWER_SETTINGS>): AnswerSettings {
  return {
    waitMs: v.ANSWER_WAIT_MS,
    timeBudgetMs: v.ANSWER_TIME_BUDGET_MS,
    maxSources: v.ANSWER_MAX_SOURCES,
    sourceTimeoutMs: v.ANSWER_SOURCE_TIMEOUT_MS,
    maxBytes: v.ANSWER_MAX_BYTES,
    apiConcurrency: v.ANSWER_API_CONCURRENCY,
  };
}

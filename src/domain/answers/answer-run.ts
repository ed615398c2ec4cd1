import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import { createDeadline } from '../../engine/deadline.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ClaimedJob } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { jobErrorOf } from '../../workers/queue/job-worker.js';
import type { PageContentStore } from '../pages/page-content.js';
import { Page } from '../pages/page.entity.js';
import type { ScrapeExecutor } from '../scrapes/scrape-executor.js';
import {
  composeWithModel,
  composeWithoutModel,
  rankedPassages,
  type AnswerDocument,
  type ComposedAnswer,
} from './answer-compose.js';
import type { AnswerContextSources } from './answer-context.js';
import { answerProgressEvent, publishProgress, type AnswerPhase } from './answer-progress.js';
import { answerShape } from './answer-shape.js';
import { readSources, sourceUrls, urlsInTask } from './answer-sources.js';
import type { AnswerRequest } from './answer.schema.js';
import type { AnswerSettings } from './answer.settings.js';

export const ANSWER_JOB = 'answer.run';

export interface AnswerRunDeps {
  orm: Orm;
  queue: JobQueue;
  pubsub: PubSub;
  blobs: BlobStore;
  executor: ScrapeExecutor;
  pages: PageContentStore;
  models: ModelRegistry;
  search: SearchRegistry;
  context: AnswerContextSources;
  settings: AnswerSettings;
  logger: Logger;
}

/** How a run ended: the answer's result is stored, or it failed with `error` (also stored). */
export type RunOutcome = { status: 'completed' } | { status: 'failed'; error: AppError } | { status: 'lost' };

interface AnswerRow {
  id: string;
  teamId: string;
  task: string;
  request: AnswerRequest;
}

/** The blob holding an answer's JSON (json_hosted_url). */
export const answerJsonKey = (teamId: string, id: string) => `teams/${teamId}/answers/${id}/answer.json`;

/**
 * Runs one answer while holding its job: search (or the given URLs), read the sources in
 * parallel, rank their passages, compose with the model (or the deterministic extractor), then
 * in ONE transaction complete the job and store the result, only while the lease is held, so
 * an answer run twice (its first runner died) is recorded once. A failure ends the job and the
 * answer as failed with the error; a lost lease or a stopping worker records nothing (the job
 * comes back). Whoever runs it (the API while its client waits, or a worker) runs this.
 */
export class AnswerRunner {
  constructor(private readonly deps: AnswerRunDeps) {}

  async run(job: ClaimedJob, signal: AbortSignal): Promise<RunOutcome> {
    const answer = await this.load(job.id);
    if (!answer) {
      await this.deps.queue.transaction((em) => this.deps.queue.complete(em, job));
      return { status: 'lost' };
    }
    const deadline = createDeadline(this.deps.settings.timeBudgetMs, signal);
    try {
      const composed = await this.compose(answer, deadline.signal).catch((err: unknown) => {
        throw deadline.explain(err, 'the answer was not ready');
      });
      return (await this.complete(job, answer, composed)) ? { status: 'completed' } : { status: 'lost' };
    } catch (err) {
      if (signal.aborted) throw err; // lease lost or worker stopping: the job comes back
      const error = err instanceof AppError ? err : new AppError('internal', 'internal_error', 'the answer failed');
      if (!(err instanceof AppError)) this.deps.logger.error({ err, answer: answer.id }, 'answer failed');
      return (await this.fail(job, answer, error)) ? { status: 'failed', error } : { status: 'lost' };
    } finally {
      deadline.dispose();
    }
  }

  private async compose(answer: AnswerRow, signal: AbortSignal): Promise<ComposedAnswer> {
    const { request } = answer;
    const shape = answerShape(request.json_format);
    // One step at a time, in order: sources read in parallel report as they finish.
    let steps = Promise.resolve();
    const progress = (phase: AnswerPhase, message: string, counts?: { done: number; total: number }) =>
      (steps = steps.then(() => this.progress(answer, phase, message, counts, signal)));
    if (!request.urls?.length && urlsInTask(answer.task).length === 0) await progress('searching', 'finding sources');
    const [{ urls, searched, stored }, files] = await Promise.all([
      sourceUrls(answer.task, request, {
        search: this.deps.search,
        teamId: answer.teamId,
        maxSources: this.deps.settings.maxSources,
        signal,
      }),
      this.deps.context.read(answer.teamId, request.context_file_ids ?? [], signal),
    ]);
    await progress('reading', `reading ${urls.length} sources`, { done: 0, total: urls.length });
    const reading = await readSources(urls, {
      executor: this.deps.executor,
      pages: this.deps.pages,
      settings: this.deps.settings,
      teamId: answer.teamId,
      signal,
      onRead: (done, total) => void progress('reading', `read ${done} of ${total} sources`, { done, total }),
      stored,
      readStored: (pageId) => this.readStored(answer.teamId, pageId),
    });
    const documents: AnswerDocument[] = [
      ...reading.read.map((s) => ({ source: s.url, text: s.markdown })),
      ...files.map((f) => ({ source: f.source, text: f.text })),
    ];
    await progress('composing', 'composing the answer');
    const passages = rankedPassages(documents, answer.task, shape);
    const provider = this.deps.models.default();
    const composed =
      provider && passages.length > 0
        ? await composeWithModel(provider, answer.task, shape, passages, { signal })
        : composeWithoutModel(answer.task, shape, passages);
    const notes: string[] = [];
    if (documents.length === 0) {
      notes.push(
        searched && urls.length === 0
          ? 'the search found no sources for this task; every value is empty'
          : 'no source could be read; every value is empty',
      );
    }
    if (reading.failed.length > 0) notes.push(`sources not read: ${reading.failed.join('; ')}`);
    // Nothing to read: the empty shape, and the notes say why (no extractor report to give).
    const warnings = passages.length > 0 ? composed.warnings : [];
    return { ...composed, warnings: [...warnings, ...notes] };
  }

  private async complete(job: ClaimedJob, answer: AnswerRow, composed: ComposedAnswer): Promise<boolean> {
    const json = JSON.stringify(composed.value ?? null);
    const key = answerJsonKey(answer.teamId, answer.id);
    await this.deps.blobs.put(key, json, { contentType: 'application/json; charset=utf-8' });
    const done = await this.deps.queue.transaction(async (em) => {
      if (!(await this.deps.queue.complete(em, job))) return false;
      await exec(
        em,
        `update answers set status = 'completed', phase = 'completed', json_content = ?, json_key = ?, sources = ?,
           warning = ?, completed_at = now() where id = ? and status = 'in_progress'`,
        [
          json,
          key,
          JSON.stringify(composed.sources),
          composed.warnings.length > 0 ? composed.warnings.join(' ') : null,
          answer.id,
        ],
      );
      return true;
    });
    if (done) await this.progress(answer, 'completed', 'the answer is ready');
    // Refused: the lease was lost (the next runner writes the same object) or the answer was
    // cancelled (nobody will: the object goes).
    else if (await this.deps.queue.wasCancelled(job.id)) await this.deps.blobs.delete(key);
    return done;
  }

  private async fail(job: ClaimedJob, answer: AnswerRow, error: AppError): Promise<boolean> {
    const { code, message } = jobErrorOf(error);
    const failed = await this.deps.queue.transaction(async (em) => {
      if (!(await this.deps.queue.fail(em, job.id, job.owner, { code, message }))) return false;
      await markFailed(em, answer.id, code, message);
      return true;
    });
    if (failed) await this.progress(answer, 'failed', message);
    return failed;
  }

  /** A stored page's markdown (else its text) when the team has it inline-sized; null otherwise. */
  private async readStored(teamId: string, pageId: string): Promise<string | null> {
    const page = await this.deps.orm.em.fork().findOne(Page, { id: pageId, teamId });
    if (!page) return null;
    return (await this.deps.pages.readInline(page, 'markdown')) ?? (await this.deps.pages.readInline(page, 'text'));
  }

  private async load(id: string): Promise<AnswerRow | null> {
    const [row] = await exec<{ id: string; team_id: string; task: string; request: AnswerRequest }>(
      this.deps.orm.em.fork(),
      `select id, team_id, task, request from answers where id = ? and status = 'in_progress'`,
      [id],
    );
    return row ? { id: row.id, teamId: row.team_id, task: row.task, request: row.request } : null;
  }

  /** Whether the answer is still in progress (writing `phase` when given); true when the database cannot say. */
  private stillOpen(id: string, phase: AnswerPhase | null): Promise<boolean> {
    const em = this.deps.orm.em.fork();
    const rows =
      phase === null
        ? exec(em, `select id from answers where id = ? and status = 'in_progress'`, [id])
        : exec(em, `update answers set phase = ? where id = ? and status = 'in_progress' returning id`, [phase, id]);
    return rows.then(
      (found) => found.length > 0,
      () => true,
    );
  }

  /**
   * Records the phase (each source read is not written, only checked) and publishes it, only
   * while the answer is in progress: once it was cancelled, the run's late steps neither
   * overwrite its phase nor send events after the cancel's. When the database cannot say, the
   * event goes out. The end (`completed`, `failed`) is published as is: the transaction that
   * recorded it wrote the phase.
   */
  private async progress(
    answer: AnswerRow,
    phase: AnswerPhase,
    message: string,
    counts?: { done: number; total: number },
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted) return;
    const ended = phase === 'completed' || phase === 'failed';
    const open = ended || (await this.stillOpen(answer.id, phase !== 'reading' || counts?.done === 0 ? phase : null));
    if (open) publishProgress(this.deps.pubsub, this.deps.logger, answerProgressEvent(answer, phase, message, counts));
  }
}

/** Ends an answer as failed (in the transaction that fails its job). */
export async function markFailed(
  em: Parameters<typeof exec>[0],
  id: string,
  code: string,
  message: string,
): Promise<void> {
  await exec(
    em,
    `update answers set status = 'failed', phase = 'failed', error_code = ?, error_message = ?, completed_at = now()
     where id = ? and status = 'in_progress'`,
    [code, message.slice(0, 2000), id],
  );
}

import { hostname } from 'node:os';
import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ClaimedJob } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import type { Actor } from '../auth/actor.js';
import type { AnswerContextSources } from './answer-context.js';
import { answerProgressEvent, publishProgress, type AnswerProgressEvent } from './answer-progress.js';
import { ANSWER_JOB, type AnswerRunner, type RunOutcome } from './answer-run.js';
import { answerShape } from './answer-shape.js';
import { urlsInTask } from './answer-sources.js';
import { ANSWER_LIMITS, type CreateAnswerCommand } from './answer.schema.js';
import type { AnswerSettings } from './answer.settings.js';
import { answerView, type AnswerRecord, type AnswerView } from './answer.view.js';

export interface AnswerServiceDeps {
  orm: Orm;
  queue: JobQueue;
  blobs: BlobStore;
  guard: OutboundGuard;
  search: SearchRegistry;
  context: AnswerContextSources;
  runner: AnswerRunner;
  /** Where a cancel's progress event goes. */
  pubsub: PubSub;
  settings: AnswerSettings;
  /** Wakes this process's job supervisor when an answer is left to the worker lanes. */
  work?: WorkSignal;
  /** Lifetime of json_hosted_url (the hosted URLs' 7 days). */
  hostedUrlTtlSeconds: number;
  leaseMs: number;
  logger: Logger;
}

const COLUMNS = `id, team_id, status, phase, task, metadata, json_content, json_key, sources, warning, error_code,
  error_message, created_at, completed_at`;

/**
 * POST/GET /v1/answers. An answer is a row and an `answer.run` job (same id) written together;
 * the API claims that job at once and runs it while the client waits up to ANSWER_WAIT_MS. Done
 * by then: the answer; failed by then: the error (and the answer is removed: the client never
 * saw its id); still running: `status: in_progress`, and the run goes on under the job's
 * lease, so if this process dies a worker takes the job up again. GET shows where it is.
 */
export class AnswerService {
  private readonly owner = `${hostname()}:${process.pid}:api:answers`;
  /** Answers this process is running itself (for ANSWER_API_CONCURRENCY). */
  private running = 0;
  /** The runs going on here, by job id: `stop` aborts them and gives their jobs back. */
  private readonly inFlight = new Map<string, AbortController>();

  constructor(private readonly deps: AnswerServiceDeps) {}

  async create(actor: Actor, command: CreateAnswerCommand): Promise<AnswerView> {
    const { task, metadata, ...request } = command;
    answerShape(request.json_format); // 400 for a shape no model or extractor could fill
    request.urls?.forEach((url, i) => this.deps.guard.checkUrl(parseTargetUrl(url, `urls[${i}]`)));
    if (!request.urls?.length && urlsInTask(task).length === 0) this.deps.search.require(request.search?.provider);
    await this.deps.context.check(actor.teamId, request.context_file_ids ?? []);

    const id = newId('answer');
    // Runs here only within ANSWER_API_CONCURRENCY; past it, the worker lanes take it up.
    const runHere = this.running < this.deps.settings.apiConcurrency;
    if (runHere) this.running++;
    let job: ClaimedJob | null = null;
    try {
      job = await this.deps.queue.transaction(async (em) => {
        await exec(em, `insert into answers (id, team_id, task, request, metadata) values (?, ?, ?, ?, ?)`, [
          id,
          actor.teamId,
          task,
          JSON.stringify(request),
          JSON.stringify(metadata ?? {}),
        ]);
        await this.deps.queue.enqueue([{ id, kind: ANSWER_JOB, teamId: actor.teamId }], em);
        return runHere ? this.deps.queue.claimById(ANSWER_JOB, id, this.owner, em) : null;
      });
    } finally {
      if (runHere && !job) this.running--; // the run's own end releases the slot otherwise
    }
    if (!runHere) {
      this.deps.work?.notify();
      return this.get(actor, id);
    }
    if (!job) throw new Error(`answer job ${id} was taken before it was claimed`);
    const outcome = await this.runWhileWaiting(job);
    if (outcome?.status === 'failed') {
      await exec(this.deps.orm.em.fork(), 'delete from answers where id = ?', [id]);
      throw outcome.error;
    }
    return this.get(actor, id);
  }

  async get(actor: Actor, id: string): Promise<AnswerView> {
    const [row] = await exec<AnswerRecord>(
      this.deps.orm.em.fork(),
      `select ${COLUMNS} from answers where id = ? and team_id = ?`,
      [id, actor.teamId],
    );
    if (!row) throw errors.notFound('answer', id);
    return this.view(row);
  }

  async list(actor: Actor, query: { cursor?: number; limit?: number }) {
    const limit = query.limit ?? ANSWER_LIMITS.pageSize.default;
    const offset = query.cursor ?? 0;
    const rows = await exec<AnswerRecord>(
      this.deps.orm.em.fork(),
      `select ${COLUMNS} from answers where team_id = ? order by created_at desc, id desc limit ? offset ?`,
      [actor.teamId, limit + 1, offset],
    );
    const answers = await Promise.all(rows.slice(0, limit).map((r) => this.view(r)));
    return { answers, nextCursor: rows.length > limit ? offset + limit : null };
  }

  /**
   * Cancels an answer in progress: its job is cancelled and the answer ends `cancelled` in one
   * transaction, so whoever runs it records nothing more (a run in this process stops at once;
   * one elsewhere at its next write or lease renewal) and its JSON object is removed; a client
   * waiting on POST gets the cancelled answer; subscribers a last progress event. Cancelling a
   * cancelled answer returns it unchanged; a completed or failed one is a 409.
   */
  async cancel(actor: Actor, id: string): Promise<AnswerView> {
    const cancelledNow = await this.deps.queue.transaction(async (em) => {
      const [found] = await exec<{ status: string }>(em, 'select status from answers where id = ? and team_id = ?', [
        id,
        actor.teamId,
      ]);
      if (!found) throw errors.notFound('answer', id);
      if (found.status !== 'in_progress') return false;
      await this.deps.queue.cancel(em, [id]);
      const rows = await exec(
        em,
        `update answers set status = 'cancelled', phase = 'cancelled', completed_at = now()
         where id = ? and status = 'in_progress' returning id`,
        [id],
      );
      return rows.length > 0;
    });
    if (cancelledNow) {
      this.inFlight.get(id)?.abort(new AppError('conflict', 'answer_cancelled', `answer ${id} was cancelled`));
      const event = answerProgressEvent({ id, teamId: actor.teamId }, 'cancelled', 'the answer was cancelled');
      publishProgress(this.deps.pubsub, this.deps.logger, event);
    }
    const answer = await this.get(actor, id);
    if (answer.status !== 'cancelled') {
      throw new AppError(
        'conflict',
        'answer_not_in_progress',
        `answer ${id} is ${answer.status}: only an answer in progress can be cancelled`,
      );
    }
    return answer;
  }

  /** The answer's progress now (a subscription's first event); 404 for another team's. */
  async progress(actor: Actor, id: string): Promise<AnswerProgressEvent> {
    const answer = await this.get(actor, id);
    const message = answer.error?.message ?? (answer.status === 'completed' ? 'the answer is ready' : answer.phase);
    return answerProgressEvent({ id, teamId: actor.teamId }, answer.phase, message);
  }

  private async view(row: AnswerRecord): Promise<AnswerView> {
    const url = row.json_key
      ? await this.deps.blobs.signedGetUrl(row.json_key, {
          expiresInSeconds: this.deps.hostedUrlTtlSeconds,
          filename: `${row.id}.json`,
        })
      : null;
    return answerView(row, url);
  }

  /**
   * The process is stopping: the runs going on here stop (an aborted run records nothing) and
   * their jobs go back to the queue without counting the attempt, so a worker takes them up now
   * instead of after their lease runs out.
   */
  async stop(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    if (ids.length === 0) return;
    for (const controller of this.inFlight.values())
      controller.abort(new AppError('unavailable', 'service_unavailable', 'the API is stopping'));
    await this.deps.queue.release(this.owner, ids);
    this.deps.work?.notify();
    this.deps.logger.info({ answers: ids.length }, 'answers running here went back to the queue');
  }

  /**
   * Runs the claimed job here, renewing its lease (a third of it) until it ends; resolves with
   * its outcome, or null when ANSWER_WAIT_MS passed first (the run goes on). A lost lease stops
   * the run: another worker has the job.
   */
  private runWhileWaiting(job: ClaimedJob): Promise<RunOutcome | null> {
    const controller = new AbortController();
    this.inFlight.set(job.id, controller);
    const heartbeat = setInterval(
      () => {
        this.deps.queue
          .heartbeat(this.owner, [job])
          .then((lost) => lost.includes(job.id) && controller.abort(errors.timeout('the answer’s job lease was lost')))
          .catch(() => undefined);
      },
      Math.max(1000, this.deps.leaseMs / 3),
    );
    heartbeat.unref();
    const run = this.deps.runner
      .run(job, controller.signal)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) this.deps.logger.error({ err, answer: job.id }, 'answer run failed');
        return { status: 'lost' } as const;
      })
      .finally(() => {
        clearInterval(heartbeat);
        this.inFlight.delete(job.id);
        this.running--;
      });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.deps.settings.waitMs);
    });
    return Promise.race([run, waited]).finally(() => clearTimeout(timer));
  }
}

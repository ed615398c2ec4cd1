import http from 'node:http';
import https from 'node:https';
import type { GuardedAgents } from '../../engine/guarded-agents.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError } from '../../errors.js';
import { Reply, successStatus, type AnyRoute } from '../../module/route.js';
import { parseInput } from '../../validation.js';
import type { Actor } from '../auth/actor.js';
import { stringQuery, type ScheduleTarget } from './schedule-endpoint.js';
import type { ScheduleMethod } from './schedule.entity.js';

/** What one call of a schedule's endpoint came to; recorded on its run. */
export interface CallOutcome {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  resourceId: string | null;
  /** The first 1 KB of the answer. */
  excerpt: string | null;
}

export interface ScheduleCall {
  target: ScheduleTarget;
  method: ScheduleMethod;
  payload: Record<string, unknown>;
  /** The schedule's team (not a key: deleting a key does not stop a team's schedules). */
  actor: Actor;
  scheduleId: string;
  runId: string;
  signal: AbortSignal;
}

const EXCERPT_BYTES = 1024;
const MAX_REDIRECTS = 5;
export const URL_TIMEOUT_MS = 30_000;

/**
 * Makes a schedule's call: a short endpoint runs its route's handler in this process as the
 * schedule's team (the route's own input validation, no HTTP round trip); a URL is requested
 * over HTTP through the guarded agents (every connection, redirects included, checked against
 * the outbound policy when it is made), with a 30 s limit. Never throws for the endpoint's
 * failures: they are the outcome.
 */
export class ScheduleCaller {
  constructor(
    private readonly agents: GuardedAgents,
    private readonly guard: OutboundGuard,
    private readonly timeoutMs = URL_TIMEOUT_MS,
  ) {}

  call(call: ScheduleCall): Promise<CallOutcome> {
    return call.target.kind === 'route' ? callRoute(call.target.route, call) : this.callUrl(call.target.url, call);
  }

  private async callUrl(start: URL, call: ScheduleCall): Promise<CallOutcome> {
    // One controller, one timer and one listener, removed when the call ends (AbortSignal.any
    // with AbortSignal.timeout cost 2.5 % of a worker's CPU while it fired 10,000 schedules).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('timed out')), this.timeoutMs);
    const stop = () => deadline.abort(call.signal.reason);
    if (call.signal.aborted) stop();
    else call.signal.addEventListener('abort', stop, { once: true });
    try {
      return await this.follow(start, call, deadline.signal);
    } finally {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', stop);
    }
  }

  /** The call and its redirects, each checked against the outbound policy, until an answer or a failure. */
  private async follow(start: URL, call: ScheduleCall, deadline: AbortSignal): Promise<CallOutcome> {
    let url = start;
    let method: ScheduleMethod = call.method;
    for (let hop = 0; ; hop++) {
      try {
        this.guard.checkUrl(url);
      } catch (err) {
        return failed(null, err instanceof AppError ? `${err.code}: ${err.detail}` : String(err));
      }
      const body = method === 'POST' ? JSON.stringify(call.payload) : null;
      const options = {
        agents: this.agents,
        signal: deadline,
        headers: { 'x-gleaner-schedule-id': call.scheduleId, 'idempotency-key': call.runId },
      };
      let answer = await request(url, method, body, options);
      // A kept-alive connection the server closed as this request went out (it idled out there):
      // sent again once on a new connection, as Node advises for `reusedSocket`; the idempotency
      // key is the same.
      if ('stale' in answer) answer = await request(url, method, body, { ...options, fresh: true });
      if ('error' in answer) {
        // The deadline ends the call either because its time ran out or because the job's signal did.
        const timedOut = deadline.aborted && !call.signal.aborted;
        return failed(null, timedOut ? `no answer within ${this.timeoutMs / 1000} s` : answer.error);
      }
      const { status, location, excerpt } = answer;
      if (status >= 300 && status < 400 && location) {
        if (hop >= MAX_REDIRECTS) return failed(status, `more than ${MAX_REDIRECTS} redirects`);
        try {
          url = new URL(location, url);
        } catch {
          return failed(status, `redirect to an invalid location ${JSON.stringify(location.slice(0, 200))}`);
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) method = 'GET';
        continue;
      }
      const ok = status >= 200 && status < 300;
      return {
        ok,
        httpStatus: status,
        error: ok ? null : `the endpoint answered ${status}`,
        resourceId: null,
        excerpt,
      };
    }
  }
}

function failed(httpStatus: number | null, error: string): CallOutcome {
  return { ok: false, httpStatus, error, resourceId: null, excerpt: null };
}

/** A route's handler, called as its REST mount calls it, with the schedule's payload as the request. */
async function callRoute(route: AnyRoute, call: ScheduleCall): Promise<CallOutcome> {
  try {
    const body = route.body ? parseInput(route.body, call.payload, 'payload') : undefined;
    const query = route.query
      ? parseInput(route.query, call.method === 'GET' ? stringQuery(call.payload) : {}, 'payload')
      : undefined;
    const result = await route.handler({
      actor: call.actor,
      body,
      query,
      params: undefined,
      signal: call.signal,
      header: () => undefined,
    });
    let status = successStatus(route);
    let answer: unknown = result;
    if (result instanceof Reply) {
      status = result.status;
      answer = result.body;
    } else if (result instanceof Response) {
      status = result.status;
      answer = await readStart(result);
    }
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? null);
    const ok = status < 400;
    return {
      ok,
      httpStatus: status,
      error: ok ? null : `the endpoint answered ${status}`,
      resourceId: idOf(answer),
      excerpt: cut(text),
    };
  } catch (err) {
    if (err instanceof AppError) return failed(err.status, `${err.code}: ${err.detail}`);
    return failed(500, 'internal_error: unexpected error in the endpoint');
  }
}

/** The id of what a route created: `id` at the top of its answer. */
function idOf(answer: unknown): string | null {
  if (answer && typeof answer === 'object' && typeof (answer as { id?: unknown }).id === 'string') {
    return (answer as { id: string }).id;
  }
  return null;
}

function cut(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= EXCERPT_BYTES
    ? text
    : bytes
        .subarray(0, EXCERPT_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

async function readStart(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return cut(Buffer.concat(chunks).toString('utf8'));
}

interface Answer {
  status: number;
  location: string | null;
  excerpt: string;
}

/** The request failed before any answer on a connection kept alive from an earlier request. */
interface Stale {
  stale: true;
  error: string;
}

/** Errors of a kept-alive connection the server closed just as it was reused. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function request(
  url: URL,
  method: ScheduleMethod,
  body: string | null,
  options: {
    agents: GuardedAgents;
    signal: AbortSignal;
    headers: Record<string, string>;
    /** A retry after a stale connection: report its errors as they are. */
    fresh?: boolean;
  },
): Promise<Answer | Stale | { error: string }> {
  return new Promise((resolve) => {
    if (options.signal.aborted) {
      resolve({ error: 'aborted' });
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string | number> = {
      'user-agent': 'Gleaner-Schedules/1',
      accept: '*/*',
      ...options.headers,
    };
    if (body !== null) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const agent = url.protocol === 'https:' ? options.agents.https : options.agents.http;
    const req = client.request(url, {
      method,
      // A retry opens a new connection (through the same guarded connect) instead of taking the
      // next kept-alive one: connections opened in one burst idle out at the server together.
      ...(options.fresh ? { agent: false, createConnection: agent.createConnection.bind(agent) } : { agent }),
      headers,
      signal: options.signal,
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        const location = res.headers.location ?? null;
        resolve({ status: res.statusCode ?? 0, location, excerpt: cut(Buffer.concat(chunks).toString('utf8')) });
      };
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The rest of the answer is not needed: stop reading it.
        if (size >= EXCERPT_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', (err) => {
      const e = err as Error & { code?: string };
      const error =
        err instanceof AppError ? `${err.code}: ${err.detail}` : e.code ? `${e.code}: ${e.message}` : e.message;
      const stale = req.reusedSocket && !answered && !options.fresh && !options.signal.aborted;
      resolve(stale && STALE_CODES.has(e.code ?? '') ? { stale: true, error } : { error });
    });
    req.end(body ?? undefined);
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerRunHandler } from '../../src/domain/answers/answer-run.job.js';
import { ANSWER_JOB, answerJsonKey } from '../../src/domain/answers/answer-run.js';
import { resourceChannel, type DomainEvent } from '../../src/pubsub/events.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

// Cancelling answers while they read a slow source: one run by the API while its client waits
// (it stops at once, and the waiting client gets the cancelled answer), one run by another
// runner (a worker): its late steps are refused and send nothing.

let site: FixtureServer;
let app: TestApp;
const held: (() => void)[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/fast': html('<title>Fast</title><p>Plan: Quick</p><p>Price: 2 EUR</p>'),
    // Answers only when the test lets it go.
    '/slow/*': async (_req, res) => {
      await new Promise<void>((resolve) => held.push(resolve));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><p>Plan: Slowpoke</p>');
    },
  });
  app = await startTestApp({
    config: {
      outbound: allowLocalPorts(site.port),
      // One answer run by the API at a time (the next goes to the workers); clients wait long.
      answers: { waitMs: 20_000, apiConcurrency: 1 },
    } as never,
  });
}, 60_000);

afterAll(async () => {
  for (const release of held) release();
  await app?.close();
  await site?.close();
});

const json = { 'content-type': 'application/json' };
const get = async (path: string, key?: string) =>
  (await (await app.request(path, { headers: json, key })).json()) as Body;
const create = (path: string) =>
  app.request('/v1/answers', {
    method: 'POST',
    json: { task: 'plan price', json_format: { plan: '', price: '' }, urls: [site.url(path)], search: null },
  });
const cancel = (id: string, key?: string) => app.request(`/v1/answers/${id}/cancel`, { method: 'POST', key });
const sql = (text: string, params: unknown[] = []) =>
  app.container.db.orm.em.fork().getConnection().execute(text, params) as Promise<Body[]>;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function record(id: string): { events: DomainEvent[]; stop: () => Promise<unknown> } {
  const events: DomainEvent[] = [];
  const subscription = app.container.pubsub.subscribe(resourceChannel('answer', id));
  void (async () => {
    for await (const event of subscription) events.push(event);
  })();
  return { events, stop: async () => subscription.return?.() };
}

describe('POST /v1/answers/{id}/cancel', () => {
  it('stops answers run here and elsewhere; nothing of them is recorded or sent afterwards', async () => {
    // A: the API runs it while its client waits, reading /slow/a.
    const waiting = create('/slow/a');
    await until('A reads its source', () => held.length === 1);
    const [a] = (await get('/v1/answers')).data as Body[];
    expect(a).toMatchObject({ status: 'in_progress', task: 'plan price' });
    // B: the API's one slot is taken, so B waits for a worker; this test's runner plays it.
    const b = (await (await create('/slow/b')).json()) as Body;
    expect(b.status).toBe('in_progress');
    const [job] = await app.container.queue.claim(ANSWER_JOB, 'worker:2', 1);
    expect(job?.id).toBe(b.id);
    const runner = (app.container.services as any).answerRunner;
    const running = answerRunHandler(runner)(job as any, {
      signal: new AbortController().signal,
      queue: app.container.queue,
    });
    await until('B reads its source', () => held.length === 2);
    const eventsA = record(a!.id);
    const eventsB = record(b.id);

    const resA = await cancel(a!.id);
    expect(resA.status).toBe(200);
    expect((await resA.json()) as Body).toMatchObject({
      id: a!.id,
      status: 'cancelled',
      result: { json_content: null },
    });
    // The client that was waiting on A gets the cancelled answer at once.
    const answeredA = (await (await waiting).json()) as Body;
    expect(answeredA).toMatchObject({ id: a!.id, status: 'cancelled', result: { json_content: null } });
    expect(Number.isInteger(answeredA.completed_at)).toBe(true);

    const resBBody = (await (await cancel(b.id)).json()) as Body;
    expect(resBBody).toMatchObject({ id: b.id, status: 'cancelled' });
    // The sources answer now: A's read was stopped by the cancel; B's runner reads, composes,
    // stores its JSON and is refused when it records it.
    for (const release of held.splice(0)) release();
    await running;

    for (const id of [a!.id, b.id]) {
      expect(await get(`/v1/answers/${id}`)).toMatchObject({
        status: 'cancelled',
        result: { json_content: null, json_hosted_url: null, sources: [] },
      });
      const [row] = await sql('select phase, json_key from answers where id = ?', [id]);
      expect(row).toEqual({ phase: 'cancelled', json_key: null });
      expect((await sql('select status from jobs where id = ?', [id]))[0]!.status).toBe('cancelled');
      expect(await app.container.blobs.head(answerJsonKey(app.teamId, id))).toBeNull();
    }
    // Each answer's last event is its cancel: nothing after it, though B's runner went on.
    await until('both cancel events arrive', () =>
      [eventsA, eventsB].every((r) => r.events.some((e) => (e as Body).status === 'cancelled')),
    );
    for (const { events } of [eventsA, eventsB]) {
      expect(events.map((e) => (e as Body).status)).toEqual(['cancelled']);
      expect(events[0]).toMatchObject({ type: 'answer.progress', phase: 'cancelled' });
    }
    await Promise.all([eventsA.stop(), eventsB.stop()]);

    // Cancelling again changes nothing.
    const again = await cancel(b.id);
    expect(again.status).toBe(200);
    expect((await again.json()) as Body).toMatchObject({ status: 'cancelled', completed_at: resBBody.completed_at });
  }, 60_000);

  it('refuses to cancel a completed answer (409), and knows no other team’s (404)', async () => {
    const done = (await (await create('/fast')).json()) as Body;
    expect(done.status).toBe('completed');
    const conflict = await expectEnvelope(await cancel(done.id), 409);
    expect(conflict.code).toBe('answer_not_in_progress');
    expect(conflict.detail).toMatch(/is completed: only an answer in progress can be cancelled/);
    expect((await get(`/v1/answers/${done.id}`)).status).toBe('completed');
    const other = await app.otherTeam();
    expect((await expectEnvelope(await cancel(done.id, other.key), 404)).code).toBe('answer_not_found');
  });
});

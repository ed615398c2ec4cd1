import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedAgents, type GuardedAgents } from '../../../src/engine/guarded-agents.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { ScheduleCaller, type ScheduleCall } from '../../../src/domain/schedules/schedule-caller.js';

/**
 * A target that answers with keep-alive, except that it closes the connection as a request
 * arrives: every later request of a connection with `dropLater` (what a server does when its
 * idle timeout and the client's reuse cross), the first with `dropFirst`.
 */
async function startTarget(dropLater: boolean, dropFirst = false) {
  const perSocket = new WeakMap<object, number>();
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    seen.push(`${req.method} ${req.url} #${n} ${req.headers['idempotency-key']}`);
    if ((n > 1 && dropLater) || (n === 1 && dropFirst)) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${n}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    url: (path: string) => new URL(`http://127.0.0.1:${port}${path}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()),
  };
}

let agents: GuardedAgents | null = null;
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  agents?.destroy();
  agents = null;
  for (const close of closers) await close();
  closers = [];
});

function callerFor(port: number): ScheduleCaller {
  const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${port}`] });
  agents = createGuardedAgents(guard);
  return new ScheduleCaller(agents, guard, 5000);
}

const call = (url: URL, runId: string, method: 'GET' | 'POST' = 'GET'): ScheduleCall => ({
  target: { kind: 'url', url },
  method,
  payload: { n: 1 },
  actor: { teamId: 'team_a', via: 'api_key' } as ScheduleCall['actor'],
  scheduleId: 'sched_a',
  runId,
  signal: new AbortController().signal,
});

describe('schedule URL calls over kept-alive connections', () => {
  it('sends a call again once when the reused connection was closed under it', async () => {
    const target = await startTarget(true);
    closers.push(target.close);
    const caller = callerFor(target.port);
    expect(await caller.call(call(target.url('/a'), 'run_1'))).toMatchObject({ ok: true, httpStatus: 200 });
    const second = await caller.call(call(target.url('/b'), 'run_2', 'POST'));
    expect(second).toMatchObject({ ok: true, httpStatus: 200, excerpt: 'ok 1' });
    // The second call went out twice: on the kept-alive connection (closed), then on a new one.
    expect(target.seen).toEqual(['GET /a #1 run_1', 'POST /b #2 run_2', 'POST /b #1 run_2']);
  });

  it('sends it again on a new connection, not on the next kept-alive one (which idled out too)', async () => {
    const target = await startTarget(true);
    closers.push(target.close);
    const caller = callerFor(target.port);
    // Two calls at once: two connections kept alive.
    await Promise.all([caller.call(call(target.url('/a'), 'run_1')), caller.call(call(target.url('/b'), 'run_2'))]);
    const third = await caller.call(call(target.url('/c'), 'run_3'));
    expect(third).toMatchObject({ ok: true, httpStatus: 200, excerpt: 'ok 1' });
    expect(target.seen.slice(2)).toEqual(['GET /c #2 run_3', 'GET /c #1 run_3']);
  });

  it('does not send again when a new connection fails, nor more than once', async () => {
    const first = await startTarget(false, true);
    closers.push(first.close);
    const caller = callerFor(first.port);
    const outcome = await caller.call(call(first.url('/a'), 'run_1'));
    expect(outcome).toMatchObject({ ok: false, httpStatus: null });
    expect(outcome.error).toMatch(/ECONNRESET|socket hang up/);
    expect(first.seen).toEqual(['GET /a #1 run_1']);
  });
});

describe('the deadline of a schedule URL call', () => {
  /** A target that takes each request and never answers. */
  async function silentTarget() {
    const server = http.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
    return { port, url: new URL(`http://127.0.0.1:${port}/slow`) };
  }

  it('fails a call with no answer in time as timed out', async () => {
    const target = await silentTarget();
    const guard = createOutboundGuard({
      allowPrivate: false,
      denyDomains: [],
      allowAddresses: [`127.0.0.1:${target.port}`],
    });
    agents = createGuardedAgents(guard);
    const outcome = await new ScheduleCaller(agents, guard, 300).call(call(target.url, 'run_1'));
    expect(outcome).toMatchObject({ ok: false, httpStatus: null, error: 'no answer within 0.3 s' });
  });

  it('reports a call its job stopped as stopped, not timed out', async () => {
    const target = await silentTarget();
    const caller = callerFor(target.port);
    const job = new AbortController();
    setTimeout(() => job.abort(new Error('lease lost')), 200);
    const outcome = await caller.call({ ...call(target.url, 'run_1'), signal: job.signal });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).not.toMatch(/no answer within/);
  });
});

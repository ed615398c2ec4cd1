import { randomBytes } from 'node:crypto';
import type { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { RequestError, Server } from 'proxy-chain';
import { createGuardedAgents } from '../../src/engine/guarded-agents.js';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import type { ProxyChoice } from '../../src/engine/types.js';
import { AppError } from '../../src/errors.js';

/** What the proxy saw for one scrape: requests it let through and the ones the guard refused. */
export interface ProxySessionLog {
  allowed: number;
  /** Guard refusals (`host:port: detail`), first ones kept. */
  refused: string[];
}

/** One scrape's way out: the browser context's proxy settings, and what went through them. */
export interface ProxySession {
  /** For `browser.newContext({ proxy })` and for a Node client (`http://127.0.0.1:PORT`). */
  readonly proxy: { server: string };
  readonly log: ProxySessionLog;
  close(): void;
}

/**
 * A forward proxy inside the service that every request of every browser context goes through
 * (HTTP, HTTPS and WebSocket via CONNECT; Playwright also sends loopback through it). It is where
 * the outbound guard is authoritative for the browser: the proxy resolves names with the guard's
 * `lookupFor(port)` when it connects, so the address checked is the address connected to, and
 * Chromium never resolves a target itself. Redirect hops, navigations, fetch/XHR, WebSockets,
 * beacons and workers all arrive here as separate requests.
 *
 * Each scrape gets a session: a listener (127.0.0.1, its own port) that selects the scrape's
 * upstream proxy (country) and collects what the guard refused. Ports rather than proxy
 * credentials tell sessions apart: credentials make Chromium pause every request for an
 * authentication round trip. An idle listener refuses everything. Through an upstream proxy the
 * upstream resolves the target, so the target is checked with `assertAllowed` first (the same
 * residual risk as the http engine).
 *
 * @example
 * const proxy = await startGuardProxy(guard);
 * const session = await proxy.session(req.proxy ?? null);
 * const context = await browser.newContext({ proxy: session.proxy });
 */
export interface GuardProxy {
  session(upstream: ProxyChoice | null): Promise<ProxySession>;
  close(): Promise<void>;
}

interface SessionState {
  upstream: string | null;
  log: ProxySessionLog;
}

interface Listener {
  server: Server;
  state: SessionState | null;
}

const MAX_LOGGED_REFUSALS = 20;

export function startGuardProxy(guard: OutboundGuard): GuardProxy {
  const agents = createGuardedAgents(guard, { keepAlive: true });
  const idle: Listener[] = [];
  const all = new Set<Listener>();
  // A random realm (the Server header of the proxy's own answers): no target can imitate it.
  const realm = `gleaner-guard-${randomBytes(6).toString('hex')}`;

  async function prepare(listener: Listener, hostname: string, port: number, isHttp: boolean) {
    const state = listener.state;
    if (!state) throw new RequestError('no browser session is using this proxy', 403);
    const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
    const target = `${host}:${port}`;
    try {
      if (state.upstream || isHttp) {
        // Through an upstream the upstream resolves: check first. Plain HTTP is checked first too,
        // so a refusal is a clean 403 from this proxy (a connect-time failure would be a 599 page).
        await guard.assertAllowed(`http://${target}/`);
      } else {
        // CONNECT: the name is checked when the proxy connects (lookup below); literals skip lookup.
        guard.checkUrl(`http://${target}/`);
      }
    } catch (err) {
      const detail = err instanceof AppError ? err.detail : (err as Error).message;
      note(state, `${target}: ${detail}`);
      throw new RequestError(`refused by the outbound guard: ${detail}`, 403);
    }
    state.log.allowed++;
    if (state.upstream) return { upstreamProxyUrl: state.upstream };
    // proxy-chain types this as dns.lookup; it only ever calls it the way net.connect does.
    const dnsLookup = recordingLookup(guard.lookupFor(port), state, target) as unknown as typeof lookup;
    return { dnsLookup, httpAgent: agents.http };
  }

  async function open(): Promise<Listener> {
    const listener: Listener = { server: null as unknown as Server, state: null };
    listener.server = new Server({
      port: 0,
      host: '127.0.0.1',
      authRealm: realm,
      prepareRequestFunction: ({ hostname, port, isHttp }) => prepare(listener, hostname, port, isHttp),
    });
    // Connection errors towards targets are the page's problem, reported to Chromium as statuses.
    listener.server.on('requestFailed', () => undefined);
    await listener.server.listen();
    all.add(listener);
    return listener;
  }

  return {
    async session(upstream) {
      const listener = idle.pop() ?? (await open());
      const state: SessionState = { upstream: upstream?.url ?? null, log: { allowed: 0, refused: [] } };
      listener.state = state;
      let closed = false;
      return {
        proxy: { server: `http://127.0.0.1:${listener.server.port}` },
        log: state.log,
        close() {
          if (closed) return;
          closed = true;
          listener.state = null;
          idle.push(listener);
        },
      };
    },
    async close() {
      agents.destroy();
      await Promise.all([...all].map((l) => l.server.close(true)));
      all.clear();
      idle.length = 0;
    },
  };
}

function note(state: SessionState, refusal: string): void {
  if (state.log.refused.length < MAX_LOGGED_REFUSALS) state.log.refused.push(refusal);
}

/** The guard's connect-time lookup, noting refusals in the session's log. */
function recordingLookup(lookup: LookupFunction, state: SessionState, target: string): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (err, address, family) => {
      if (err instanceof AppError) note(state, `${target}: ${err.detail}`);
      callback(err, address, family);
    });
}

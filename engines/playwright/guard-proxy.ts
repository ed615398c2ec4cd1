import { randomBytes } from 'node:crypto';
import type { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { RequestError, Server, type PrepareRequestFunctionOpts } from 'proxy-chain';
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
  /** For `browser.newContext({ proxy })`: the address browsers reach it at, and its credentials if it asks for them. */
  readonly proxy: { server: string; username?: string; password?: string };
  /** The same listener for a Node client in this process (`http://[user:pass@]127.0.0.1:PORT`). */
  readonly localUrl: string;
  readonly log: ProxySessionLog;
  close(): void;
}

/** Where the proxy listens and how browsers reach it. */
export interface GuardProxyOptions {
  /** Interface the listeners bind to (default 127.0.0.1: a browser on this machine). */
  listenHost?: string;
  /** Host browsers connect to (default `listenHost`, or 127.0.0.1 when that is 0.0.0.0 or ::). */
  advertisedHost?: string;
  /**
   * Each session asks for its own random credentials (default: when `listenHost` is not a
   * loopback address). On a network other machines reach, a busy listener is then no proxy for them.
   */
  credentials?: boolean;
}

/** A plain-HTTP host no target can have: the proxy answers it itself in a probe session. */
export const PROBE_HOST = 'guard-proxy.gleaner.invalid';

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
  /**
   * A session that lets nothing out and answers `http://guard-proxy.gleaner.invalid/` itself with
   * `token`: a browser that loads that page through it reaches the proxy (a remote browser's check).
   */
  probe(token: string): Promise<ProxySession>;
  close(): Promise<void>;
}

interface SessionState {
  upstream: string | null;
  log: ProxySessionLog;
  credentials: { username: string; password: string } | null;
  /** Set in a probe session: the answer to PROBE_HOST; nothing else goes out. */
  probe: string | null;
}

interface Listener {
  server: Server;
  state: SessionState | null;
}

const MAX_LOGGED_REFUSALS = 20;

export function startGuardProxy(guard: OutboundGuard, options: GuardProxyOptions = {}): GuardProxy {
  const listenHost = options.listenHost ?? '127.0.0.1';
  const advertised = options.advertisedHost ?? (isUnspecified(listenHost) ? '127.0.0.1' : listenHost);
  const local = isUnspecified(listenHost) ? '127.0.0.1' : listenHost;
  const withCredentials = options.credentials ?? !isLoopback(listenHost);
  const agents = createGuardedAgents(guard, { keepAlive: true });
  const idle: Listener[] = [];
  const all = new Set<Listener>();
  // A random realm (the Server header of the proxy's own answers): no target can imitate it.
  const realm = `gleaner-guard-${randomBytes(6).toString('hex')}`;

  async function prepare(listener: Listener, request: PrepareRequestFunctionOpts) {
    const { hostname, port, isHttp } = request;
    const state = listener.state;
    if (!state) throw new RequestError('no browser session is using this proxy', 403);
    const wanted = state.credentials;
    if (wanted && (request.username !== wanted.username || request.password !== wanted.password)) {
      return { requestAuthentication: true };
    }
    if (state.probe !== null) return probeAnswer(state.probe, hostname, isHttp);
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
      host: listenHost,
      authRealm: realm,
      prepareRequestFunction: (request) => prepare(listener, request),
    });
    // Connection errors towards targets are the page's problem, reported to Chromium as statuses.
    listener.server.on('requestFailed', () => undefined);
    await listener.server.listen();
    all.add(listener);
    return listener;
  }

  async function begin(upstream: string | null, probe: string | null): Promise<ProxySession> {
    const listener = idle.pop() ?? (await open());
    const credentials = withCredentials
      ? { username: 'session', password: randomBytes(18).toString('base64url') }
      : null;
    const state: SessionState = { upstream, log: { allowed: 0, refused: [] }, credentials, probe };
    listener.state = state;
    let closed = false;
    const port = listener.server.port;
    const auth = credentials ? `${credentials.username}:${credentials.password}@` : '';
    return {
      proxy: { server: `http://${hostForUrl(advertised)}:${port}`, ...(credentials ?? {}) },
      localUrl: `http://${auth}${hostForUrl(local)}:${port}`,
      log: state.log,
      close() {
        if (closed) return;
        closed = true;
        listener.state = null;
        idle.push(listener);
      },
    };
  }

  return {
    session: (upstream) => begin(upstream?.url ?? null, null),
    probe: (token) => begin(null, token),
    async close() {
      agents.destroy();
      await Promise.all([...all].map((l) => l.server.close(true)));
      all.clear();
      idle.length = 0;
    },
  };
}

/** The probe session's answer: PROBE_HOST over plain HTTP gets the token, anything else is refused. */
function probeAnswer(token: string, hostname: string, isHttp: boolean) {
  if (!isHttp || hostname !== PROBE_HOST) throw new RequestError('a probe session lets nothing out', 403);
  return {
    customResponseFunction: () => ({
      statusCode: 200,
      headers: { 'content-type': 'text/plain', 'cache-control': 'no-store' },
      body: token,
    }),
  };
}

const isUnspecified = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';
const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
const hostForUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

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

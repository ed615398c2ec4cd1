import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { createOutboundGuard, normalizeHost, type OutboundGuard, type Resolver } from './outbound-guard.js';

/**
 * A WHATWG `fetch` whose every connection goes through the outbound guard, for HTTP client
 * libraries that take a `fetch` (the AI SDK's providers, a search API). Redirects are followed
 * by fetch, and each hop's connection is checked again at connect time.
 *
 * Services the operator configured by URL (a model server, a SearXNG) are trusted origins:
 * reachable even on loopback or a private network, because the operator chose them; cloud
 * metadata addresses stay refused for them too. Everything else follows the guard: a trusted
 * server redirecting to an internal address is refused like any other target.
 *
 * @example
 * const guarded = createGuardedFetch(guard, { trustedOrigins: ['http://localhost:11434'] });
 * const res = await guarded.fetch('http://localhost:11434/v1/models', { signal });
 * await guarded.close();
 */
export interface GuardedFetch {
  readonly fetch: typeof globalThis.fetch;
  /** Closes pooled connections; in-flight requests fail. */
  close(): Promise<void>;
}

export interface GuardedFetchOptions {
  /** `scheme://host[:port]` of operator-configured services (path ignored). */
  trustedOrigins?: readonly string[];
  /** DNS for trusted hosts (default: the system resolver), the same one the guard uses. */
  resolve?: Resolver;
  /** TCP/TLS connect timeout (default 10 s). Overall time limits are the caller's `signal`. */
  connectTimeoutMs?: number;
  /** Response bodies larger than this fail while being read (default 32 MiB). */
  maxResponseBytes?: number;
}

type Connector = ReturnType<typeof buildConnector>;

export function createGuardedFetch(guard: OutboundGuard, options: GuardedFetchOptions = {}): GuardedFetch {
  const trusted = new Set((options.trustedOrigins ?? []).map(originKey));
  // The same policy with private addresses allowed: what a trusted origin may reach.
  const trustedGuard = createOutboundGuard({ ...guard.policy, allowPrivate: true }, { resolve: options.resolve });
  const timeout = options.connectTimeoutMs ?? 10_000;
  const connectors = new Map<string, Connector>();
  const maxBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;

  const connectorFor = (checker: OutboundGuard, trustedHost: boolean, port: number): Connector => {
    const key = `${trustedHost}:${port}`;
    let connector = connectors.get(key);
    if (!connector) {
      connector = buildConnector({ timeout, lookup: checker.lookupFor(port) });
      connectors.set(key, connector);
    }
    return connector;
  };

  const dispatcher = new Agent({
    // Timeouts belong to the caller's signal: a local model may take minutes before its first byte.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect(opts, callback) {
      const host = normalizeHost(opts.hostname);
      const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
      const isTrusted = trusted.has(`${host}:${port}`);
      const checker = isTrusted ? trustedGuard : guard;
      // Node's net.connect skips `lookup` for IP literals, so they are checked here.
      if (isIP(host)) {
        try {
          checker.checkAddress(host, port, host);
        } catch (err) {
          callback(err as Error, null);
          return;
        }
      }
      connectorFor(checker, isTrusted, port)(opts, callback);
    },
  });

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = (await undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as Response;
    return limitBody(response, maxBytes);
  };
  return { fetch: guardedFetch as typeof globalThis.fetch, close: () => dispatcher.destroy() };
}

/** `host:port` of an origin, the port made explicit, so `http://h` and `http://h:80` match. */
function originKey(origin: string): string {
  const url = new URL(origin);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return `${normalizeHost(url.hostname)}:${port}`;
}

/** The same response whose body errors once more than `maxBytes` arrive. */
function limitBody(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let received = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) controller.error(new Error(`response body larger than ${maxBytes} bytes`));
      else controller.enqueue(chunk);
    },
  });
  const limited = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A Response built by hand has no URL; callers (and error messages) may want the final one.
  Object.defineProperty(limited, 'url', { value: response.url });
  Object.defineProperty(limited, 'redirected', { value: response.redirected });
  return limited;
}

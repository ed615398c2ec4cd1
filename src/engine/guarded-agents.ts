import http from 'node:http';
import https from 'node:https';
import { isIP, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { OutboundGuard } from './outbound-guard.js';

/** Agents whose every new connection goes through the guard; ready for any plain HTTP client. */
export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
  /** Closes idle keep-alive sockets. */
  destroy(): void;
}

export interface GuardedAgentOptions {
  /** Reuse connections (default true). A reused socket stays connected to the address checked when it opened. */
  keepAlive?: boolean;
  /** Per-host socket limit (default Infinity, like Node's default agent). */
  maxSockets?: number;
  /** Idle sockets kept per host (default 16). */
  maxFreeSockets?: number;
}

type ConnectOptions = http.ClientRequestArgs;
type ConnectCallback = (err: Error | null, stream: Duplex) => void;
type Connect = (options: ConnectOptions, callback?: ConnectCallback) => Duplex | null | undefined;

/**
 * Creates http and https agents that check every connection with the guard: IP-literal hosts
 * before connecting (Node skips `lookup` for them) and names through the guard's lookup, so
 * the address checked is the address connected to.
 *
 * @example
 * const agents = createGuardedAgents(guard);
 * const res = await fetchWithNodeHttp(url, { agent: url.startsWith('https:') ? agents.https : agents.http });
 * got(url, { agent: { http: agents.http, https: agents.https } });
 */
export function createGuardedAgents(guard: OutboundGuard, options: GuardedAgentOptions = {}): GuardedAgents {
  const agentOptions = {
    keepAlive: options.keepAlive ?? true,
    maxSockets: options.maxSockets ?? Infinity,
    maxFreeSockets: options.maxFreeSockets ?? 16,
    scheduling: 'lifo' as const,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  guardAgent(httpAgent, guard, http.Agent.prototype.createConnection);
  guardAgent(httpsAgent, guard, https.Agent.prototype.createConnection);
  return {
    http: httpAgent,
    https: httpsAgent,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** Wraps an agent's `createConnection` so each new socket is checked first. */
function guardAgent(agent: http.Agent, guard: OutboundGuard, original: Connect): void {
  agent.createConnection = function guardedCreateConnection(options, callback) {
    const host = String(options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
    const port = options.port === undefined || options.port === null ? null : Number(options.port);
    if (isIP(host)) {
      try {
        guard.checkAddress(host, port, host);
      } catch (err) {
        return failedSocket(err as Error);
      }
    }
    return original.call(this, { ...options, lookup: guard.lookupFor(port) }, callback);
  };
}

/** A socket that fails on the next tick, which is how `http.request` expects connect errors. */
function failedSocket(err: Error): Socket {
  const socket = new Socket();
  process.nextTick(() => socket.destroy(err));
  return socket;
}

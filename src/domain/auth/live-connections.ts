import type { Logger } from '../../logger.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { Actor } from './actor.js';

/** Why a credential stopped being valid: its API key was revoked, or its access token expired. */
export type CredentialEnd = 'revoked' | 'expired';

/**
 * The long-lived connections of this process (GraphQL WebSockets, SSE streams) by the
 * credential that opened them, so that they end when it does: a revoked API key (told by the
 * `api_key.revoked` event, or found by re-checking the open connections' keys every key-cache
 * period when no event reached this process), an expired access token (at its `exp`).
 *
 * @example
 * const forget = live.add(actor, (why) => socket.close(4403, why === 'revoked' ? 'API key revoked' : 'access token expired'));
 * socket.once('close', forget);
 */
export interface LiveConnections {
  /**
   * Registers a connection opened with `actor`'s credential. `end` is called at most once,
   * when the credential stops being valid; the connection must then close. Returns the function
   * that unregisters it (call it when the connection closes for any reason).
   */
  add(actor: Actor, end: (why: CredentialEnd) => void): () => void;
  /** Connections registered now. */
  readonly size: number;
  /** Stops listening and every timer; registered connections are left to their transport's shutdown. */
  close(): void;
}

export interface LiveConnectionsDeps {
  pubsub: PubSub;
  /** Which of these key ids are revoked or gone. */
  revokedAmong: (keyIds: string[]) => Promise<Set<string>>;
  /** Told of every key found revoked (the key cache forgets it at once). */
  onRevoked?: (keyId: string) => void;
  /** How often open connections' keys are re-checked (the key cache's period: revocations elsewhere apply within it). */
  recheckMs: number;
  logger: Logger;
}

interface Entry {
  end: (why: CredentialEnd) => void;
  keyId?: string;
  timer?: NodeJS.Timeout;
}

/** setTimeout's longest delay; a token valid for longer re-arms its timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createLiveConnections(deps: LiveConnectionsDeps): LiveConnections {
  const byKey = new Map<string, { entries: Set<Entry>; listening: AbortController }>();
  const all = new Set<Entry>();
  let recheck: NodeJS.Timeout | null = null;
  let checking = false;

  const finish = (entry: Entry, why: CredentialEnd | null) => {
    if (!all.delete(entry)) return;
    clearTimeout(entry.timer);
    const group = entry.keyId === undefined ? undefined : byKey.get(entry.keyId);
    if (group?.entries.delete(entry) && group.entries.size === 0) {
      group.listening.abort();
      byKey.delete(entry.keyId!);
    }
    if (byKey.size === 0 && recheck) {
      clearInterval(recheck);
      recheck = null;
    }
    if (why === null) return;
    try {
      entry.end(why);
    } catch (err) {
      deps.logger.warn({ err }, 'ending a live connection failed');
    }
  };

  const revoke = (keyId: string) => {
    deps.onRevoked?.(keyId);
    for (const entry of [...(byKey.get(keyId)?.entries ?? [])]) finish(entry, 'revoked');
  };

  const listen = (keyId: string, signal: AbortSignal) => {
    void (async () => {
      for await (const event of deps.pubsub.subscribe(resourceChannel('key', keyId), signal)) {
        if (event.type === 'api_key.revoked') revoke(keyId);
      }
    })().catch((err: unknown) => deps.logger.warn({ err, keyId }, 'revocation listener failed'));
  };

  const recheckKeys = async () => {
    if (checking || byKey.size === 0) return;
    checking = true;
    try {
      for (const keyId of await deps.revokedAmong([...byKey.keys()])) revoke(keyId);
    } catch (err) {
      deps.logger.warn({ err }, 'could not re-check the keys of live connections');
    } finally {
      checking = false;
    }
  };

  const watchKey = (keyId: string, entry: Entry) => {
    entry.keyId = keyId;
    let group = byKey.get(keyId);
    if (!group) {
      group = { entries: new Set(), listening: new AbortController() };
      byKey.set(keyId, group);
      listen(keyId, group.listening.signal);
    }
    group.entries.add(entry);
    if (!recheck) {
      recheck = setInterval(() => void recheckKeys(), deps.recheckMs);
      recheck.unref();
    }
  };

  const watchExpiry = (expiresAt: number, entry: Entry) => {
    const arm = () => {
      const left = expiresAt - Date.now();
      if (left <= 0) return finish(entry, 'expired');
      entry.timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      entry.timer.unref();
    };
    arm();
  };

  return {
    add(actor, end) {
      const entry: Entry = { end };
      all.add(entry);
      if (actor.keyId) watchKey(actor.keyId, entry);
      if (actor.expiresAt !== undefined) watchExpiry(actor.expiresAt, entry);
      return () => finish(entry, null);
    },
    get size() {
      return all.size;
    },
    close() {
      for (const entry of [...all]) finish(entry, null);
    },
  };
}

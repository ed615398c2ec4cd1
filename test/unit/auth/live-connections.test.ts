import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../../src/domain/auth/actor.js';
import { createLiveConnections, type CredentialEnd } from '../../../src/domain/auth/live-connections.js';
import { createLogger } from '../../../src/logger.js';
import { createMemoryPubSub } from '../../../src/pubsub/memory-pubsub.js';

const logger = createLogger({ logLevel: 'silent' });
const keyActor = (keyId: string): Actor => ({ teamId: 'team_1', via: 'api_key', keyId });

function setup(revoked = new Set<string>()) {
  const pubsub = createMemoryPubSub();
  const forgotten: string[] = [];
  const live = createLiveConnections({
    pubsub,
    revokedAmong: async (ids) => new Set(ids.filter((id) => revoked.has(id))),
    onRevoked: (id) => forgotten.push(id),
    recheckMs: 2000,
    logger,
  });
  const revokedEvent = (keyId: string) =>
    pubsub.publish({ type: 'api_key.revoked', teamId: 'team_1', keyId, name: 'k', at: Date.now() });
  return { pubsub, live, forgotten, revokedEvent };
}

afterEach(() => vi.useRealTimers());

describe('createLiveConnections', () => {
  it("ends every connection of a key on its revocation event, and only that key's", async () => {
    const { live, forgotten, revokedEvent, pubsub } = setup();
    const ended: string[] = [];
    live.add(keyActor('key_a'), (why) => ended.push(`a1 ${why}`));
    live.add(keyActor('key_a'), (why) => ended.push(`a2 ${why}`));
    live.add(keyActor('key_b'), (why) => ended.push(`b ${why}`));
    await revokedEvent('key_a');
    await vi.waitFor(() => expect(ended).toEqual(['a1 revoked', 'a2 revoked']));
    expect(forgotten).toEqual(['key_a']);
    expect(live.size).toBe(1);
    await vi.waitFor(() => expect(pubsub.fanout.size).toBe(1)); // key_a's listener is gone
  });

  it('finds a revocation no event announced by re-checking open keys', async () => {
    vi.useFakeTimers();
    const revoked = new Set<string>();
    const { live } = setup(revoked);
    const ended: CredentialEnd[] = [];
    live.add(keyActor('key_a'), (why) => ended.push(why));
    await vi.advanceTimersByTimeAsync(2000);
    expect(ended).toEqual([]);
    revoked.add('key_a');
    await vi.advanceTimersByTimeAsync(2000);
    expect(ended).toEqual(['revoked']);
  });

  it("ends a token's connection at its expiry", async () => {
    vi.useFakeTimers();
    const { live } = setup();
    const ended: CredentialEnd[] = [];
    live.add({ teamId: 'team_1', via: 'jwt', expiresAt: Date.now() + 5000 }, (why) => ended.push(why));
    await vi.advanceTimersByTimeAsync(4999);
    expect(ended).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toEqual(['expired']);
    live.add({ teamId: 'team_1', via: 'jwt', expiresAt: Date.now() - 1 }, (why) => ended.push(why));
    expect(ended).toEqual(['expired', 'expired']);
  });

  it('forgets a connection that closed by itself: no end, no listener, no timer', async () => {
    vi.useFakeTimers();
    const { live, pubsub, revokedEvent } = setup();
    const end = vi.fn();
    const forget = live.add({ ...keyActor('key_a'), expiresAt: Date.now() + 1000 }, end);
    forget();
    forget();
    await revokedEvent('key_a');
    await vi.advanceTimersByTimeAsync(5000);
    expect(end).not.toHaveBeenCalled();
    expect(live.size).toBe(0);
    expect(pubsub.fanout.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

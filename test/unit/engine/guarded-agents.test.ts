import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedAgents, type GuardedAgents } from '../../../src/engine/guarded-agents.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { AppError } from '../../../src/errors.js';
import { createTestResolver } from '../../contract/engine.contract.js';
import { html, startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';

/** What a webhook sender would do: plain node:http with the guarded agent. */
function get(url: string, agents: GuardedAgents): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: agents.http }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

describe('createGuardedAgents', () => {
  let server: FixtureServer;
  let strict: GuardedAgents;
  let exempt: GuardedAgents;
  const dns = createTestResolver({ 'internal.test': [['127.0.0.1']] });

  beforeAll(async () => {
    server = await startFixtureServer({ '/': html('<p>internal</p>') });
    strict = createGuardedAgents(createOutboundGuard({ allowPrivate: false, denyDomains: [] }, { resolve: dns }));
    exempt = createGuardedAgents(
      createOutboundGuard(
        { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${server.port}`] },
        { resolve: dns },
      ),
    );
  });
  afterAll(async () => {
    strict.destroy();
    exempt.destroy();
    await server.close();
  });

  it('refuses an IP-literal loopback target (Node skips lookup for literals)', async () => {
    const err = await get(`http://127.0.0.1:${server.port}/`, strict).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('blacklisted_domain');
    expect(server.hits('/')).toBe(0);
  });

  it('refuses a name resolving to loopback', async () => {
    const err = await get(`http://internal.test:${server.port}/`, strict).catch((e: unknown) => e);
    expect((err as AppError).detail).toMatch(/internal\.test resolves to 127\.0\.0\.1/);
    expect(server.hits('/')).toBe(0);
  });

  it('lets an exempted address and port through, by literal and by name, and reuses the connection', async () => {
    await expect(get(`http://127.0.0.1:${server.port}/`, exempt)).resolves.toBe('<p>internal</p>');
    await expect(get(`http://internal.test:${server.port}/`, exempt)).resolves.toBe('<p>internal</p>');
    await expect(get(`http://internal.test:${server.port}/`, exempt)).resolves.toBe('<p>internal</p>');
    expect(server.hits('/')).toBe(3);
  });
});

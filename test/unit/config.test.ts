import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allSettings, ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('gives the documented defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.server.port).toBe(8080);
    expect(config.database.url).toBeNull();
    expect(config.s3).toBeNull();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.scrape.hostedUrlTtlSeconds).toBe(7 * 86400);
    expect(config.outbound.allowPrivate).toBe(false);
  });

  it('names every bad variable and its value', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', OUTBOUND_ALLOW_PRIVATE: 'maybe' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain('PORT="eighty"');
      expect(message).toContain('LOG_LEVEL="loud"');
      expect(message).toContain('DATABASE_URL="mysql://x"');
      expect(message).toContain('OUTBOUND_ALLOW_PRIVATE="maybe"');
    }
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT="70000"/);
  });

  it('requires the S3 credentials together', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_ACCESS_KEY, S3_SECRET_KEY: required when S3_ENDPOINT/,
    );
    const config = loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    expect(config.s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', bucket: 'web-content', region: 'us-east-1' });
  });

  it('requires issuer, JWKS URL and audience together', () => {
    expect(() => loadConfig({ AUTH_JWT_ISSUER: 'https://idp' })).toThrow(/AUTH_JWT_JWKS_URL, AUTH_JWT_AUDIENCE/);
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({ OUTBOUND_DENY_DOMAINS: 'a.com, b.org,,', OUTBOUND_ALLOW_PRIVATE: 'true' });
    expect(config.outbound).toEqual({ allowPrivate: true, denyDomains: ['a.com', 'b.org'], allowAddresses: [] });
  });

  it('has no model and no SearXNG unless configured', () => {
    const config = loadConfig({});
    expect(config.model).toBeNull();
    expect(config.searxng).toBeNull();
  });

  it('reads the model server settings, and requires MODEL_NAME with MODEL_BASE_URL', () => {
    expect(() => loadConfig({ MODEL_BASE_URL: 'http://localhost:11434/v1' })).toThrow(
      /MODEL_NAME: required when MODEL_BASE_URL is set/,
    );
    const config = loadConfig({ MODEL_BASE_URL: 'http://localhost:11434/v1', MODEL_NAME: 'llama3.1:8b' });
    expect(config.model).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: null,
      name: 'llama3.1:8b',
      timeoutMs: 120_000,
      maxRetries: 2,
      contextTokens: 8192,
      maxOutputTokens: 2048,
      structuredOutput: 'json_schema',
    });
  });

  it("reports a provider's settings that do not fit together with every other bad variable", () => {
    expect(() => loadConfig({ PORT: 'eighty', MODEL_BASE_URL: 'http://localhost:11434/v1' })).toThrow(
      /PORT="eighty".*\n.*MODEL_NAME: required when MODEL_BASE_URL is set/,
    );
  });

  it('gives each engine and provider its slice, by its configKey', () => {
    const config = loadConfig({ SCRAPE_USER_AGENT: 'Gleaner/1', BROWSER_POOL_SIZE: '2' });
    expect(config.httpEngine).toEqual({ userAgent: 'Gleaner/1' });
    expect(config.browser).toMatchObject({ enabled: true, chromiumPath: null, poolSize: 2 });
  });

  it('reads the remote browser of the cdp engine, and leaves it out unless BROWSER_CDP_URL is set', () => {
    expect(loadConfig({}).cdp).toBeNull();
    const config = loadConfig({
      BROWSER_CDP_URL: 'ws://browserless:3000?token=abc',
      BROWSER_CDP_PROXY_LISTEN: '0.0.0.0',
    });
    expect(config.cdp).toEqual({
      url: 'ws://browserless:3000?token=abc',
      poolSize: 4,
      proxyListen: '0.0.0.0',
      proxyHost: null,
      connectTimeoutMs: 10_000,
    });
    expect(() => loadConfig({ BROWSER_CDP_URL: 'ftp://chrome:9222' })).toThrow(/BROWSER_CDP_URL="ftp:\/\/chrome:9222"/);
  });

  it('refuses a reply budget that leaves no room for the prompt, and unknown structured-output modes', () => {
    const model = { MODEL_BASE_URL: 'http://localhost:11434/v1', MODEL_NAME: 'm' };
    expect(() => loadConfig({ ...model, MODEL_CONTEXT_TOKENS: '4096', MODEL_MAX_OUTPUT_TOKENS: '4096' })).toThrow(
      /MODEL_MAX_OUTPUT_TOKENS: must be smaller than MODEL_CONTEXT_TOKENS/,
    );
    expect(() => loadConfig({ ...model, MODEL_STRUCTURED_OUTPUT: 'grammar' })).toThrow(
      /MODEL_STRUCTURED_OUTPUT="grammar"/,
    );
  });

  it('reads SEARXNG_URL and its timeout', () => {
    const config = loadConfig({ SEARXNG_URL: 'http://searxng:8080', SEARXNG_TIMEOUT_MS: '5000' });
    expect(config.searxng).toEqual({ url: 'http://searxng:8080', timeoutMs: 5000 });
  });

  it('is documented: every setting is in .env.example and the README table', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [name] of allSettings()) {
      expect(example, `.env.example lists ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      expect(readme, `README lists ${name}`).toContain(`| \`${name}\``);
    }
  });
});

import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngineSetup } from '../../../src/plugins.js';
import { contextOptions, navigationHeaders, userAgentFor } from '../../../engines/playwright/browser-identity.js';
import { describeAction, validateBrowserSettings } from '../../../engines/playwright/browser-settings.js';
import { locateChromium } from '../../../engines/playwright/chromium-path.js';
import { blockReason, isBlockedHost } from '../../../engines/playwright/resource-policy.js';
import { loadConfig, type AppConfig } from '../../../src/config.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { createEngineRegistry } from '../../../src/engine/registry.js';

describe('validateBrowserSettings', () => {
  it('fills in defaults', () => {
    expect(validateBrowserSettings(undefined)).toEqual({
      waitBeforeMs: 0,
      actions: [],
      screenshot: null,
      printPdf: false,
      screen: { width: 1024, height: 768, mobile: false },
      loadAllResources: false,
    });
  });

  it('keeps valid actions, normalised', () => {
    const settings = validateBrowserSettings({
      waitBeforeMs: 30_000,
      screenshot: { fullPage: true },
      actions: [
        { type: 'wait_for', selector: '#a' },
        { type: 'wait_for', selector: '#b', timeout: 60_000 },
        { type: 'scroll', direction: 'up', amount: 0 },
        { type: 'fill_input', selector: 'input', value: '' },
      ],
    });
    expect(settings.actions).toEqual([
      { type: 'wait_for', selector: '#a' },
      { type: 'wait_for', selector: '#b', timeout: 60_000 },
      { type: 'scroll', direction: 'up', amount: 0 },
      { type: 'fill_input', selector: 'input', value: '' },
    ]);
    expect(settings.screenshot).toEqual({ fullPage: true });
  });

  it('counts default selector timeouts out of the waiting limit, explicit ones in', () => {
    const many = Array.from({ length: 50 }, () => ({ type: 'wait_for' as const, selector: '#x' }));
    expect(validateBrowserSettings({ actions: many }).actions).toHaveLength(50);
    expect(() =>
      validateBrowserSettings({
        actions: [
          { type: 'wait', milliseconds: 59_999 },
          { type: 'wait_for', selector: '#x', timeout: 2 },
        ],
      }),
    ).toThrow('actions: waits add up to 60001 ms');
  });

  it('refuses what request validation should already have refused', () => {
    expect(() => validateBrowserSettings({ actions: 'click' as never })).toThrow('actions: must be an array');
    expect(() => validateBrowserSettings({ actions: [{ type: 'click', selector: 7 }] as never })).toThrow(
      'actions[0].selector: must be a string',
    );
    expect(() => validateBrowserSettings({ actions: [{ type: 'execute_js', script: 'x'.repeat(100_001) }] })).toThrow(
      'actions[0].script: longer than 100000 characters',
    );
    expect(() => validateBrowserSettings({ screen: { width: 3841, height: 800, mobile: false } })).toThrow(
      'screen_size.screen_width: must be an integer between 100 and 3840 (got 3841)',
    );
    expect(() => validateBrowserSettings({ screen: { width: 800, height: 4321, mobile: false } })).toThrow(
      /screen_height: .*between 100 and 4320/,
    );
  });

  it('labels actions for error messages', () => {
    expect(describeAction({ type: 'click', selector: '#buy' })).toBe('click "#buy"');
    expect(describeAction({ type: 'press', key: 'Enter' })).toBe('press "Enter"');
    expect(describeAction({ type: 'wait', milliseconds: 5 })).toBe('wait 5 ms');
    expect(describeAction({ type: 'scroll', direction: 'down' })).toBe('scroll down');
    expect(describeAction({ type: 'execute_js', script: 'x' })).toBe('execute_js');
    expect(describeAction({ type: 'hover', selector: 'a'.repeat(100) })).toBe(`hover "${'a'.repeat(80)}…"`);
  });
});

describe('resource policy', () => {
  const url = (u: string) => new URL(u);
  const defaults = { loadAllResources: false, keepFonts: false };

  it('blocks media and fonts unless told otherwise', () => {
    expect(blockReason('media', url('https://cdn.example/a.mp4'), defaults)).toBe('media');
    expect(blockReason('font', url('https://cdn.example/a.woff2'), defaults)).toBe('font');
    expect(blockReason('font', url('https://cdn.example/a.woff2'), { ...defaults, keepFonts: true })).toBeNull();
    expect(blockReason('media', url('https://cdn.example/a.mp4'), { ...defaults, loadAllResources: true })).toBeNull();
    for (const type of ['document', 'script', 'stylesheet', 'image', 'fetch', 'xhr']) {
      expect(blockReason(type, url('https://example.com/x'), defaults)).toBeNull();
    }
  });

  it('blocks ad and tracker hosts with their subdomains, and paths of shared hosts', () => {
    expect(isBlockedHost(url('https://securepubads.g.doubleclick.net/tag/js/gpt.js'))).toBe(true);
    expect(isBlockedHost(url('https://www.google-analytics.com/analytics.js'))).toBe(true);
    expect(isBlockedHost(url('https://www.facebook.com/tr?id=1'))).toBe(true);
    expect(isBlockedHost(url('https://www.facebook.com/somepage'))).toBe(false);
    expect(isBlockedHost(url('https://notdoubleclick.net/'))).toBe(false);
    expect(isBlockedHost(url('https://example.com/doubleclick.net'))).toBe(false);
    expect(blockReason('script', url('https://static.hotjar.com/c/hotjar.js'), defaults)).toBe('ad or tracker');
  });
});

describe('browser identity', () => {
  it('presents as the Chromium version that renders, desktop or mobile', () => {
    expect(userAgentFor(156, false)).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
    expect(userAgentFor(156, true)).toMatch(/Android .* Chrome\/156\.0\.0\.0 Mobile Safari/);
    expect(navigationHeaders(156, true)).toMatchObject({ 'sec-ch-ua-mobile': '?1', 'sec-fetch-mode': 'navigate' });
    const options = contextOptions(
      validateBrowserSettings({ screen: { width: 414, height: 896, mobile: true } }),
      156,
      undefined,
    );
    expect(options).toMatchObject({
      viewport: { width: 414, height: 896 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: false,
      serviceWorkers: 'block',
    });
  });
});

/** The configuration with Chromium looked for only in `candidates` (CHROMIUM_PATH unset). */
function withCandidates(config: AppConfig, candidates: string[]): AppConfig {
  return { ...config, browser: { ...config.browser, candidates } };
}

describe('finding Chromium and enabling the engine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-'));
  const fake = path.join(dir, 'chromium');
  writeFileSync(fake, '#!/bin/sh\necho "Chromium 1.2.3.4"\n');
  chmodSync(fake, 0o755);
  const notExecutable = path.join(dir, 'plain-file');
  writeFileSync(notExecutable, '');
  const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });

  it('uses CHROMIUM_PATH, and refuses one that is not an executable', () => {
    expect(locateChromium(fake)).toEqual({ path: fake });
    expect(() => locateChromium(notExecutable)).toThrow(`CHROMIUM_PATH=${notExecutable} is not an executable file`);
    expect(() => locateChromium('/no/such/chromium')).toThrow('is not an executable file');
  });

  it('detects the first known location, or says how to install it', () => {
    expect(locateChromium(null, ['/no/such', notExecutable, fake])).toEqual({ path: fake });
    const missing = locateChromium(null, ['/no/such']);
    expect(missing.path).toBeNull();
    expect(missing.reason).toMatch(/Chromium was not found .*apt-get install chromium.* or set CHROMIUM_PATH/);
  });

  it('starts without Chromium: no browser engine, and browser-only requests get a 400 saying how to enable it', async () => {
    const setup = createEngineSetup(withCandidates(loadConfig({}), ['/no/such']), { guard });
    expect(setup.engines.map((e) => e.id)).toEqual(['http']);
    const registry = createEngineRegistry(setup.engines, { unavailable: setup.unavailable });
    await expect(
      registry.fetch(
        { url: 'https://example.com/', timeoutMs: 1000 },
        { needs: ['javascript', 'screenshot'], signal: new AbortController().signal },
      ),
    ).rejects.toMatchObject({
      status: 400,
      detail: expect.stringMatching(
        /^no enabled engine can do what this request needs \(javascript, screenshot\);.* engine playwright could, but it is not available here: Chromium was not found/,
      ),
    });
    await registry.stop();
  });

  it('leaves the browser out when BROWSER_ENABLED=false, and registers it when Chromium is found', async () => {
    const off = createEngineSetup(withCandidates(loadConfig({ BROWSER_ENABLED: 'false' }), [fake]), { guard });
    expect(off.engines.map((e) => e.id)).toEqual(['http']);
    expect(off.unavailable.find((u) => u.id === 'playwright')?.reason).toMatch(/BROWSER_ENABLED=false/);
    const on = createEngineSetup(withCandidates(loadConfig({ BROWSER_POOL_SIZE: '3' }), [fake]), { guard });
    expect(on.engines.map((e) => [e.id, e.priority])).toEqual([
      ['http', 100],
      ['playwright', 10],
    ]);
    expect(on.unavailable.map((u) => u.id)).not.toContain('playwright');
    for (const engine of on.engines) await engine.stop?.();
  });
});

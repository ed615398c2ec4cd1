import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { CrawlEngine } from '../../../src/engine/crawl-engine.js';
import { defineEngine, listEngines, unavailable } from '../../../src/engine/engine-definition.js';
import { createEngineSetup } from '../../../src/engine/engine-setup.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { createEngineRegistry } from '../../../src/engine/registry.js';
import { NO_CAPABILITIES, type ScrapeEngine } from '../../../src/engine/types.js';
import { ENGINES } from '../../../src/plugins.js';
import { int } from '../../../src/settings.js';

const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });
const config = loadConfig({});
/** The configuration with the echo engine's slice (what its settings would parse to). */
const withEcho = (slots: number) => Object.assign({}, config, { echo: { slots } });

function echo(priority: number, capabilities = { ...NO_CAPABILITIES, screenshot: true }): ScrapeEngine {
  return {
    id: 'echo',
    priority,
    capabilities,
    fetchPage: async (req) => ({
      url: req.url,
      finalUrl: req.url,
      statusCode: 200,
      headers: {},
      contentType: 'text/html',
      body: Buffer.from('<p>echo</p>'),
      engine: 'echo',
      redirects: [],
    }),
  };
}

const echoEngine = defineEngine({
  id: 'echo',
  kind: 'scrape',
  description: 'Echoes',
  capabilities: ['screenshot'],
  priority: 5,
  settings: { ECHO_SLOTS: { schema: int(0, 9), default: '0', doc: 'Slots; 0 leaves echo out.' } },
  configKey: 'echo',
  config: (v) => ({ slots: v.ECHO_SLOTS as number }),
  create: ({ settings, priority }) => (settings.slots > 0 ? echo(priority) : unavailable('ECHO_SLOTS is 0')),
});

const crawler = defineEngine({
  id: 'walker',
  kind: 'crawl',
  description: 'Walks',
  priority: 1,
  create: ({ engines }): CrawlEngine => ({ id: 'walker', run: async () => void engines.list() }),
});

describe('engine definitions', () => {
  it('lists the build: every engine once, highest priority first, whatever the order of the file', () => {
    const listed = ENGINES.map((e) => [e.id, e.kind, e.priority]);
    expect(listed).toEqual(
      expect.arrayContaining([
        ['http', 'scrape', 100],
        ['crawlee', 'crawl', 10],
        ['playwright', 'scrape', 10],
      ]),
    );
    const priorities = ENGINES.map((e) => e.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(new Set(ENGINES.map((e) => e.id)).size).toBe(ENGINES.length);
    expect(listEngines({ b: crawler, a: echoEngine }).map((e) => e.id)).toEqual(['echo', 'walker']);
    expect(() => listEngines({ a: echoEngine, b: { ...echoEngine } })).toThrow('engine "echo" is declared twice');
    expect(() => listEngines({ a: echoEngine, helper: 42 as never })).toThrow(
      'the list of engines exports helper, which is not a declared engine',
    );
  });

  it('makes what can run from its slice, keeps the rest with why, and defers crawl engines to the registry', async () => {
    const off = createEngineSetup([echoEngine, crawler], withEcho(0), { guard });
    expect(off.engines).toEqual([]);
    expect(off.unavailable).toEqual([
      { id: 'echo', kind: 'scrape', capabilities: ['screenshot'], reason: 'ECHO_SLOTS is 0' },
    ]);
    const on = createEngineSetup([echoEngine, crawler], withEcho(2), { guard });
    expect(on.engines.map((e) => [e.id, e.priority])).toEqual([['echo', 5]]);
    expect(on.catalog.map((c) => [c.id, c.kind])).toEqual([
      ['echo', 'scrape'],
      ['walker', 'crawl'],
    ]);
    const registry = createEngineRegistry(on.engines, {
      unavailable: on.unavailable,
      crawl: on.crawl,
      catalog: on.catalog,
    });
    expect(registry.describe().find((e) => e.id === 'walker')).toMatchObject({
      available: true,
      state: { status: 'idle' },
    });
    expect(registry.crawlEngine().id).toBe('walker');
    expect(registry.crawlEngine()).toBe(registry.crawlEngine());
    expect(registry.describe()).toEqual([
      {
        id: 'echo',
        kind: 'scrape',
        description: 'Echoes',
        capabilities: ['screenshot'],
        priority: 5,
        available: true,
        reason: null,
        state: { status: 'ready', detail: null },
      },
      {
        id: 'walker',
        kind: 'crawl',
        description: 'Walks',
        capabilities: [],
        priority: 1,
        available: true,
        reason: null,
        state: { status: 'ready', detail: null },
      },
    ]);
    await registry.stop();
  });

  it('refuses at boot an engine that reports other capabilities or another priority than declared', () => {
    const liar = defineEngine({ ...echoEngine, create: () => echo(5, { ...NO_CAPABILITIES, pdf: true }) });
    expect(() => createEngineSetup([liar], withEcho(1), { guard })).toThrow(
      'engine echo is declared with priority 5 and capabilities [screenshot], but its create() made echo with priority 5 and [pdf]',
    );
    const other = defineEngine({ ...echoEngine, create: () => echo(7) });
    expect(() => createEngineSetup([other], withEcho(1), { guard })).toThrow(/with priority 7/);
  });

  it('answers 400 when no crawl engine can run', () => {
    const none = defineEngine({ ...crawler, create: () => unavailable('walking is off') });
    const setup = createEngineSetup([none], config, { guard });
    const registry = createEngineRegistry([], { crawl: setup.crawl, catalog: setup.catalog });
    expect(() => registry.crawlEngine()).toThrow('no crawl engine can run here (walker: walking is off)');
    expect(registry.describe()).toMatchObject([{ id: 'walker', available: false, reason: 'walking is off' }]);
  });
});

import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { loadConfig } from '../../../src/config.js';
import { createEngineSetup } from '../../../src/plugins.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import type { ScrapeEngine } from '../../../src/engine/types.js';
import { createContentPipeline, type StageTimings } from '../../../src/pipeline/index.js';

export interface ReferenceScrape {
  markdown: string;
  /** Pipeline stage timings (parse, metadata, cleanup, markdown), ms. */
  timings: StageTimings;
  /** Time spent in the engine fetch, ms. */
  fetchMs: number;
  bytes: number;
}

export interface ReferenceScraper {
  scrape(url: string): Promise<ReferenceScrape>;
  close(): Promise<void>;
}

/**
 * The work of a default markdown scrape without the service: the same http engine built the way
 * the composition root builds it (from a config with the service's defaults, private targets
 * allowed), then the same content pipeline with the options of `{formats: ["markdown"]}`.
 * No HTTP API, database, object storage or JSON in between: that difference is what the scrape
 * benchmark measures.
 */
export function createReferenceScraper(): ReferenceScraper {
  const config = loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' });
  const guard = createOutboundGuard(config.outbound);
  const engine: ScrapeEngine | undefined = createEngineSetup(config, { guard }).engines.find((e) => e.id === 'http');
  if (!engine) throw new Error('no http engine in createEngines()');
  const pipeline = createContentPipeline({ transformers: builtinTransformers });
  const options = pipeline.prepare({ formats: ['markdown'] });
  return {
    async scrape(url) {
      const started = performance.now();
      // A signal per request, as the service gets one per HTTP request; never aborted: the engine's
      // own deadline (SCRAPE_TIMEOUT_MS) bounds each fetch.
      const signal = new AbortController().signal;
      const snapshot = await engine.fetchPage({ url, timeoutMs: config.scrape.timeoutMs }, signal);
      const fetchMs = performance.now() - started;
      if (snapshot.statusCode !== 200) throw new Error(`${url} answered ${snapshot.statusCode}`);
      const result = pipeline.process(
        { text: snapshot.text ?? '', url: snapshot.finalUrl, contentType: snapshot.contentType },
        options,
      );
      return { markdown: result.markdown ?? '', timings: result.timings, fetchMs, bytes: snapshot.body.length };
    },
    async close() {
      await engine.stop?.();
    },
  };
}

import type { Logger } from '../../logger.js';
import type { CrawlProgressEvent } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { CrawlCounters } from './crawl-rows.js';

const EVERY_MS = 250;

/** crawl.progress events: at most a few per second per crawl while it runs, always when it completes. */
export class CrawlProgress {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly pubsub: PubSub,
    private readonly logger: Logger,
  ) {}

  update(crawl: { id: string; teamId: string }, counters: CrawlCounters): void {
    const now = Date.now();
    if (now - (this.last.get(crawl.id) ?? 0) < EVERY_MS) return;
    this.last.set(crawl.id, now);
    void this.publish(crawl, counters);
  }

  async finished(crawl: { id: string; teamId: string }, counters: CrawlCounters): Promise<void> {
    this.last.delete(crawl.id);
    await this.publish(crawl, counters);
  }

  private publish(crawl: { id: string; teamId: string }, counters: CrawlCounters): Promise<void> {
    return this.pubsub.publish(progressEvent(crawl, counters)).catch((err: unknown) => {
      this.logger.warn({ err, crawl: crawl.id }, 'publishing crawl progress failed');
    });
  }
}

export function progressEvent(crawl: { id: string; teamId: string }, counters: CrawlCounters): CrawlProgressEvent {
  return {
    type: 'crawl.progress',
    teamId: crawl.teamId,
    crawlId: crawl.id,
    status: counters.status,
    pagesCount: counters.pagesCount,
    failedCount: counters.failedCount,
    blockedCount: counters.blockedCount,
    currentDepth: counters.currentDepth,
    at: Date.now(),
  };
}

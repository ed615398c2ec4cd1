import type { Dictionary, IRequestManager, Request, RequestProvider } from '@crawlee/cheerio';
import type { CrawlTarget, CrawlWork } from '../../src/engine/crawl-engine.js';

/** The crawl target behind a Crawlee request. */
export interface TargetData {
  [key: string]: unknown;
  targetId: string;
  attempt: number;
}

type RequestClass = new (options: { url: string; uniqueKey: string; userData: TargetData }) => Request<Dictionary>;

/**
 * Crawlee's request source, backed by the crawl's frontier instead of a Crawlee RequestQueue:
 * the crawler pulls each target the crawl run releases (claimed in Postgres, robots.txt checked,
 * host paced). Nothing is queued inside Crawlee, so nothing of the crawl's state lives in its
 * storage; a retry is the crawl's decision (the run hands the target out again), never Crawlee's.
 */
export class FrontierRequestManager implements IRequestManager {
  private peeked: CrawlTarget | null = null;
  private inFlight = 0;
  private handled = 0;
  private total = 0;

  constructor(
    private readonly work: CrawlWork,
    private readonly RequestCtor: RequestClass,
  ) {}

  /**
   * This manager in the crawler's `requestQueue` option. Crawlee 3.18 types a `requestManager`
   * option but its option validation rejects it; the crawler takes any object with
   * `fetchNextRequest` and `addRequest` as its queue and uses it through IRequestManager only.
   */
  asQueue(): RequestProvider {
    return this as unknown as RequestProvider;
  }

  /** The target a Crawlee request stands for. */
  static target(request: Request): CrawlTarget {
    const data = request.userData as TargetData;
    return { id: data.targetId, url: request.url, attempt: data.attempt };
  }

  async isFinished(): Promise<boolean> {
    return this.work.isDone() && this.inFlight === 0;
  }

  async isEmpty(): Promise<boolean> {
    this.peeked ??= this.work.next();
    return this.peeked === null;
  }

  async handledCount(): Promise<number> {
    return this.handled;
  }

  getTotalCount(): number {
    return this.total;
  }

  getPendingCount(): number {
    return this.inFlight;
  }

  async fetchNextRequest<T extends Dictionary = Dictionary>(): Promise<Request<T> | null> {
    const target = this.peeked ?? this.work.next();
    this.peeked = null;
    if (target === null) return null;
    this.inFlight++;
    this.total++;
    const request = new this.RequestCtor({
      url: target.url,
      // Unique per attempt: Crawlee must never take a retry for a duplicate.
      uniqueKey: `${target.id}#${target.attempt}`,
      userData: { targetId: target.id, attempt: target.attempt },
    });
    return request as unknown as Request<T>;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
    for (;;) {
      const request = await this.fetchNextRequest();
      if (request === null) return;
      yield request;
    }
  }

  async markRequestHandled(): Promise<null> {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.handled++;
    return null;
  }

  /** Crawlee retries nothing here (maxRequestRetries 0); a reclaimed request is reported as failed. */
  async reclaimRequest(request: Request): Promise<null> {
    this.inFlight = Math.max(0, this.inFlight - 1);
    await this.work.failed(FrontierRequestManager.target(request), new Error('the crawler gave the request back'));
    return null;
  }

  addRequest(): never {
    throw new Error('a crawl adds URLs through its frontier, not through Crawlee');
  }

  addRequestsBatched(): never {
    throw new Error('a crawl adds URLs through its frontier, not through Crawlee');
  }
}

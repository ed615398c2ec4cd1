import { Readable } from 'node:stream';
import type { BaseHttpClient, HttpRequest, HttpResponse, StreamingHttpResponse } from '@crawlee/cheerio';
import type { PageSnapshot } from '../../src/engine/types.js';

/** Fetches one URL the way scrapes do (the `http` engine: guard on every hop, proxies, limits, charsets). */
export type SnapshotFetcher = (url: string, signal: AbortSignal) => Promise<PageSnapshot>;

/**
 * Crawlee's HTTP client, replaced: every request HttpCrawler makes goes through the service's
 * `http` engine, so the outbound guard checks each connection and each redirect hop exactly as
 * for a scrape, and the body's charset is decoded once, the same way. The crawler receives the
 * decoded text as UTF-8; the snapshot itself (status, headers, redirects, raw bytes) stays
 * attached to the response for the request handler (`snapshotOf`).
 */
export class EngineHttpClient implements BaseHttpClient {
  private readonly snapshots = new WeakMap<object, PageSnapshot>();

  constructor(
    private readonly fetchSnapshot: SnapshotFetcher,
    private readonly signal: AbortSignal,
  ) {}

  /** The snapshot behind the response the crawler handed to a request handler. */
  snapshotOf(response: object | undefined): PageSnapshot | undefined {
    return response === undefined ? undefined : this.snapshots.get(response);
  }

  async stream(request: HttpRequest): Promise<StreamingHttpResponse> {
    const snapshot = await this.fetchSnapshot(String(request.url), this.signal);
    const textual = snapshot.text !== undefined;
    const body = textual ? Buffer.from(snapshot.text!, 'utf8') : snapshot.body;
    const stream = Readable.from([body]);
    const response = {
      stream,
      request,
      url: snapshot.finalUrl,
      redirectUrls: snapshot.redirects.map((u) => new URL(u)),
      statusCode: snapshot.statusCode,
      headers: responseHeaders(snapshot, textual, body.length),
      trailers: {},
      complete: true,
      downloadProgress: { percent: 1, transferred: body.length, total: body.length },
      uploadProgress: { percent: 1, transferred: 0, total: 0 },
    } satisfies StreamingHttpResponse;
    this.snapshots.set(stream, snapshot);
    return response;
  }

  async sendRequest<T extends 'text' | 'json' | 'buffer' = 'text'>(): Promise<HttpResponse<T>> {
    throw new Error('crawl request handlers make no further requests');
  }
}

/** Headers as served, but describing the body the crawler reads: decoded text is UTF-8, not encoded. */
function responseHeaders(snapshot: PageSnapshot, textual: boolean, length: number): Record<string, string> {
  const headers: Record<string, string> = { ...snapshot.headers };
  delete headers['content-encoding'];
  delete headers['transfer-encoding'];
  headers['content-length'] = String(length);
  headers['content-type'] = textual
    ? `${snapshot.contentType}; charset=utf-8`
    : (snapshot.headers['content-type'] ?? snapshot.contentType);
  return headers;
}

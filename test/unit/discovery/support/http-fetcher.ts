import http from 'node:http';
import type { LookupFunction } from 'node:net';
import type { DiscoveryFetcher, DiscoveryResponse } from '../../../../src/discovery/types.js';

/**
 * A real HTTP implementation of `DiscoveryFetcher` for tests (the product plugs in the guarded
 * engine). It follows up to five redirects, stops reading at `maxBytes` and resolves
 * `*.localhost` names to 127.0.0.1 so tests can use several host names against one server.
 */
const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  callback(new Error(`test fetcher only resolves *.localhost, not ${hostname}`), '', 4);
};

function getOnce(
  url: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<DiscoveryResponse & { location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { lookup, signal, headers: { 'user-agent': 'Gleaner-test' } }, (res) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const finish = (): void => {
        resolve({
          status: res.statusCode ?? 0,
          finalUrl: url,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks, total),
          ...(res.headers.location === undefined ? {} : { location: res.headers.location }),
        });
      };
      res.on('data', (chunk: Buffer) => {
        const room = maxBytes - total;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        total += Math.min(room, chunk.length);
        if (total >= maxBytes) {
          finish();
          req.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export const httpFetcher: DiscoveryFetcher = async (url, { maxBytes, signal }) => {
  let current = url;
  for (let hop = 0; hop <= 5; hop++) {
    const res = await getOnce(current, maxBytes, signal);
    if (res.status < 300 || res.status >= 400 || res.location === undefined || hop === 5) {
      return { status: res.status, finalUrl: res.finalUrl, contentType: res.contentType, body: res.body };
    }
    current = new URL(res.location, current).href;
  }
  throw new Error('unreachable');
};

/** Counts calls, to assert how many documents discovery fetched. */
export function countingFetcher(inner: DiscoveryFetcher = httpFetcher): DiscoveryFetcher & { urls: string[] } {
  const urls: string[] = [];
  const fetcher = (async (url, opts) => {
    urls.push(url);
    return inner(url, opts);
  }) as DiscoveryFetcher & { urls: string[] };
  fetcher.urls = urls;
  return fetcher;
}

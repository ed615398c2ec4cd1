import { createGunzip, constants } from 'node:zlib';

/** True when the bytes start with the gzip magic number (1f 8b), whatever the URL or type says. */
export function isGzip(body: Buffer): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

export interface GunzipResult {
  data: Buffer;
  /** Output reached `maxBytes` and decompression was stopped there. */
  truncated: boolean;
  /** Corrupt or cut-off input: `data` holds what decompressed before the problem. */
  error?: string;
}

/**
 * Decompresses at most `maxBytes` of output. A decompression bomb costs `maxBytes` of memory
 * and the time to inflate that much, then stops. Truncated input (a download cut at its own
 * byte limit) yields what could be inflated, thanks to a sync flush at the end.
 *
 * @example
 * const { data, truncated } = await gunzipBounded(body, 20 * 1024 * 1024);
 */
export function gunzipBounded(input: Buffer, maxBytes: number): Promise<GunzipResult> {
  return new Promise((resolve) => {
    const gunzip = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (result: Omit<GunzipResult, 'data'>): void => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      const data = Buffer.concat(chunks, total);
      resolve(result.error === undefined ? { data, truncated: result.truncated } : { data, ...result });
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - total;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        total += room;
        settle({ truncated: true });
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    });
    gunzip.on('end', () => settle({ truncated: false }));
    gunzip.on('error', (err: Error) => settle({ truncated: false, error: err.message }));
    gunzip.end(input);
  });
}

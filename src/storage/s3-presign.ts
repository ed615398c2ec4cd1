import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature V4 presigned URLs (query-string authentication) that sign request headers
 * besides `host`. The `minio` client presigns with `host` only and drops `content-type` from
 * any header list it is given, so a PUT it presigns accepts any body type; a header signed
 * here must be sent with exactly the signed value, or S3 answers 403 SignatureDoesNotMatch.
 *
 * Algorithm: https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 *
 * @example
 * presignS3Url({ method: 'PUT', endpoint: new URL('http://127.0.0.1:9000'), bucket: 'b', key: 'up/f.json',
 *   region: 'us-east-1', accessKey, secretKey, expiresInSeconds: 600, now: new Date(),
 *   headers: { 'content-type': 'application/json' } });
 */
export interface S3PresignInput {
  method: 'GET' | 'PUT';
  /** Bare origin of the S3 API; objects are addressed path-style (`/<bucket>/<key>`). */
  endpoint: URL;
  /** Null for a virtual-hosted endpoint that names the bucket in its host. */
  bucket: string | null;
  key: string;
  region: string;
  accessKey: string;
  secretKey: string;
  expiresInSeconds: number;
  now: Date;
  /** Headers the request must carry with exactly these values (names in any case). */
  headers?: Record<string, string>;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

/** The URL; sending it with `input.headers` is a request S3 accepts until it expires. */
export function presignS3Url(input: S3PresignInput): string {
  const amzDate = input.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const headers = canonicalHeaders({ ...input.headers, host: input.endpoint.host });
  const signedHeaders = headers.map(([name]) => name).join(';');
  const path = `${input.bucket === null ? '' : `/${uriEncode(input.bucket)}`}/${input.key
    .split('/')
    .map(uriEncode)
    .join('/')}`;
  const query: [string, string][] = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${input.accessKey}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(input.expiresInSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ];
  const canonicalQuery = query
    .map(([name, value]) => `${uriEncode(name)}=${uriEncode(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    input.method,
    path,
    canonicalQuery,
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${input.secretKey}`, day);
  for (const part of [input.region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  const origin = `${input.endpoint.protocol}//${input.endpoint.host}`;
  return `${origin}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

/** Lower-case names, values trimmed with inner runs of spaces folded, sorted by name. */
function canonicalHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** RFC 3986 encoding as SigV4 wants it: everything but `A-Za-z0-9-._~` percent-encoded. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

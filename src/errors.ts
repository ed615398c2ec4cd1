import { newId } from './ids.js';

/**
 * Every failure the API can report, by what the client should do next.
 * The table is the single source of HTTP status, title and `type` slug
 * (see ../shared/spec/decisions.md, "Errors").
 */
export const ERROR_KINDS = {
  validation: { status: 400, title: 'Bad Request', slug: 'bad_request' },
  unauthorized: { status: 401, title: 'Unauthorized', slug: 'unauthorized' },
  payment_required: { status: 402, title: 'Payment Required', slug: 'payment_required' },
  forbidden: { status: 403, title: 'Forbidden', slug: 'forbidden' },
  not_found: { status: 404, title: 'Not Found', slug: 'not_found' },
  conflict: { status: 409, title: 'Conflict', slug: 'conflict' },
  client_timeout: { status: 408, title: 'Request Timeout', slug: 'request_timeout' },
  payload_too_large: { status: 413, title: 'Payload Too Large', slug: 'payload_too_large' },
  range_not_satisfiable: { status: 416, title: 'Range Not Satisfiable', slug: 'range_not_satisfiable' },
  unprocessable: { status: 422, title: 'Unprocessable Entity', slug: 'unprocessable_entity' },
  rate_limited: { status: 429, title: 'Too Many Requests', slug: 'too_many_requests' },
  headers_too_large: {
    status: 431,
    title: 'Request Header Fields Too Large',
    slug: 'request_header_fields_too_large',
  },
  internal: { status: 500, title: 'Internal Server Error', slug: 'internal_error' },
  upstream: { status: 502, title: 'Bad Gateway', slug: 'bad_gateway' },
  timeout: { status: 504, title: 'Gateway Timeout', slug: 'gateway_timeout' },
  unavailable: { status: 503, title: 'Service Unavailable', slug: 'service_unavailable' },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export interface AppErrorOptions {
  /** Extra response headers (for example `Retry-After`). */
  headers?: Record<string, string>;
  /** Extra envelope metadata (string values only, like every metadata object). */
  metadata?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error type services throw. `code` is the machine-readable code of the
 * spec (`validation_error`, `scrape_not_found`, ...); `detail` names what was wrong.
 *
 * @example
 * throw new AppError('not_found', 'batch_not_found', `batch ${id} does not exist`);
 */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly metadata: Record<string, string>;

  constructor(kind: ErrorKind, code: string, detail: string, options: AppErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.detail = detail;
    this.headers = options.headers ?? {};
    this.metadata = options.metadata ?? {};
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

/** Shorthands for the errors thrown most often. */
export const errors = {
  validation: (detail: string) => new AppError('validation', 'validation_error', detail),
  notFound: (resource: string, id: string, label = resource) =>
    new AppError('not_found', `${resource}_not_found`, `${label} ${JSON.stringify(id)} does not exist`),
  unauthorized: (detail: string) => new AppError('unauthorized', 'invalid_api_key', detail),
  blocked: (detail: string) => new AppError('forbidden', 'blacklisted_domain', detail),
  upstream: (detail: string, cause?: unknown) => new AppError('upstream', 'upstream_error', detail, { cause }),
  timeout: (detail: string, cause?: unknown) => new AppError('timeout', 'request_timeout', detail, { cause }),
};

/** The spec's error envelope (RFC 9457 shape plus `object`, `id`, `code`, `created`, `metadata`). */
export interface ErrorEnvelope {
  object: 'error';
  id: string;
  code: string;
  type: string;
  status: number;
  title: string;
  detail?: string;
  created: number;
  metadata: Record<string, string>;
}

export interface EnvelopeContext {
  docsUrl: string;
  requestId?: string;
}

/**
 * Maps any thrown value to the envelope. Unexpected errors are masked: the caller
 * logs them (with the envelope id and request id), the client sees only a generic detail.
 */
export function toErrorEnvelope(err: unknown, ctx: EnvelopeContext): { envelope: ErrorEnvelope; expected: boolean } {
  const app = err instanceof AppError ? err : null;
  const kind = app?.kind ?? 'internal';
  const info = ERROR_KINDS[kind];
  const metadata: Record<string, string> = { ...(app?.metadata ?? {}) };
  if (ctx.requestId) metadata.request_id = ctx.requestId;
  const envelope: ErrorEnvelope = {
    object: 'error',
    id: newId('error'),
    code: app?.code ?? 'internal_server_error',
    type: `${ctx.docsUrl.replace(/\/+$/, '')}/api-reference/errors/${info.slug}`,
    status: info.status,
    title: info.title,
    detail: app?.detail ?? 'An unexpected error occurred. It has been logged; quote the request id when reporting it.',
    created: Math.floor(Date.now() / 1000),
    metadata,
  };
  return { envelope, expected: app !== null && kind !== 'internal' };
}

import type { ErrorKind } from './errors.js';

/** What one error `code` means and what the client (or the operator) can do about it. */
export interface ErrorCodeDoc {
  /** The kind it is thrown with, which gives its HTTP status (ERROR_KINDS). */
  kind: ErrorKind;
  meaning: string;
  fix: string;
}

const notFound = (
  what: string,
  fix = 'Check the id: it must be one this API returned to your team.',
): ErrorCodeDoc => ({
  kind: 'not_found',
  meaning: `No ${what} with this id exists for your team (or the id cannot be one).`,
  fix,
});

/**
 * Every `code` an error envelope can carry, for the errors page (`/docs/api-reference/errors`).
 * `test/regression/errors-page-lists-statuses-only.test.ts` finds every code the sources throw
 * and fails on one missing here, or on one listed here that nothing throws.
 */
export const ERROR_CODES: Record<string, ErrorCodeDoc> = {
  validation_error: {
    kind: 'validation',
    meaning: 'The request is not valid: a field is missing, has the wrong type or value, or is unknown.',
    fix: '`detail` names the field and the problem (and `metadata.field` the field); fix it as the API reference describes.',
  },
  invalid_json: {
    kind: 'validation',
    meaning: 'An uploaded file is not valid JSON.',
    fix: '`detail` and `metadata` give the line, column and byte; upload valid JSON in a new file.',
  },
  file_too_large: {
    kind: 'validation',
    meaning: 'An uploaded file, or one item in it, is larger than the limit.',
    fix: 'Split the input into smaller files (the limit is in `detail`; the operator sets it with FILES_MAX_BYTES).',
  },
  file_already_completed: {
    kind: 'validation',
    meaning: 'The file was completed already.',
    fix: 'Nothing to do: use the file. To change its content, create a new file.',
  },
  file_not_completed: {
    kind: 'validation',
    meaning: 'The file is used before its content was uploaded and completed.',
    fix: 'PUT the content to its `upload_url`, then `POST /v1/files/{id}/complete`, then use it.',
  },
  file_failed: {
    kind: 'validation',
    meaning: 'An earlier complete refused the file’s content (the reason is in `detail`).',
    fix: 'Create a new file with corrected content.',
  },
  invalid_file_purpose: {
    kind: 'validation',
    meaning: 'The file was created for another purpose than this use (`batch` or `context`).',
    fix: 'Create the file with the purpose this request needs.',
  },
  content_type_mismatch: {
    kind: 'validation',
    meaning: 'An upload to a pre-signed URL sent another Content-Type than the URL was made for.',
    fix: 'Send the Content-Type named in `detail` (for files: application/json).',
  },
  invalid_api_key: {
    kind: 'unauthorized',
    meaning: 'No API key was sent, or it is malformed, unknown or revoked, or an access token was refused.',
    fix: 'Send `Authorization: Bearer <key>` with an active key (`npm run keys -- create` makes one; a first start saves one to DATA_DIR/api-key).',
  },
  blacklisted_domain: {
    kind: 'forbidden',
    meaning:
      'The URL is one this service does not fetch: a loopback, private or cloud metadata address, a denied domain, or not http(s).',
    fix: 'Use a public http(s) URL. Operators can let in one internal address with OUTBOUND_ALLOW_ADDRESSES (or all private ones with OUTBOUND_ALLOW_PRIVATE, for development).',
  },
  signed_url_invalid: {
    kind: 'forbidden',
    meaning: 'A hosted or upload URL’s signature does not match: it was changed or made by another service.',
    fix: 'Use the URL exactly as the API returned it.',
  },
  signed_url_expired: {
    kind: 'forbidden',
    meaning: 'A hosted or upload URL is past its lifetime.',
    fix: 'Ask the API for a new one (retrieve the content again, or `GET /v1/files/{id}/content`).',
  },
  signed_url_used: {
    kind: 'forbidden',
    meaning: 'An upload URL works once, and it was used.',
    fix: 'Create a new file for a new upload.',
  },
  route_not_found: {
    kind: 'not_found',
    meaning: 'No operation has this method and path.',
    fix: 'Check the path and method in the API reference (`/docs`).',
  },
  answer_not_found: notFound('answer'),
  api_key_not_found: notFound('API key', 'List your keys with `GET /v1/api-keys` or `npm run keys -- list`.'),
  batch_not_found: notFound('batch'),
  blob_not_found: notFound(
    'stored object',
    'The object was deleted or expired (RETENTION_DAYS); fetch the content again.',
  ),
  crawl_not_found: notFound('crawl'),
  delivery_not_found: notFound('webhook delivery'),
  file_not_found: notFound(
    'file',
    'Files are deleted after FILES_RETENTION_DAYS, and uploads not completed in time; create it again.',
  ),
  map_not_found: notFound('map'),
  monitor_not_found: notFound('monitor'),
  page_not_found: notFound(
    'stored page (retrieve_id)',
    'Use a `retrieve_id` from a scrape, batch item or crawl page of your team.',
  ),
  parser_not_found: notFound('parser', '`detail` lists the parsers this service has; use one of their ids.'),
  run_not_found: notFound('monitor run'),
  schedule_not_found: notFound('schedule'),
  scrape_not_found: notFound('scrape'),
  team_not_found: notFound('team', 'List the teams with `npm run keys -- list` and pass one with --team.'),
  upload_not_found: {
    kind: 'not_found',
    meaning: 'The file has no uploaded content yet.',
    fix: 'PUT the JSON to the file’s `upload_url` first, then complete it.',
  },
  client_timeout: {
    kind: 'client_timeout',
    meaning: 'The request (its headers or body) did not arrive in time.',
    fix: 'Retry; check the network between the client and the service.',
  },
  monitor_not_active: {
    kind: 'conflict',
    meaning: 'The monitor cannot do this in its state (pausing or running one that is not active).',
    fix: 'Read the monitor’s `status`; resume it first if it is paused.',
  },
  monitor_not_paused: {
    kind: 'conflict',
    meaning: 'Only a paused monitor can be resumed.',
    fix: 'Nothing to do if it is active; read its `status`.',
  },
  answer_not_in_progress: {
    kind: 'conflict',
    meaning: 'Only an answer in progress can be cancelled; this one has ended (completed, failed or cancelled).',
    fix: 'Nothing to cancel: read the answer with `GET /v1/answers/{id}`.',
  },
  answer_cancelled: {
    kind: 'conflict',
    meaning: 'The answer was cancelled (`POST /v1/answers/{id}/cancel`) while it ran.',
    fix: 'Create a new answer if you still need it.',
  },
  batch_not_in_progress: {
    kind: 'conflict',
    meaning: 'Only a batch in progress can be cancelled; this one has ended.',
    fix: 'Nothing to cancel: read its items with `GET /v1/batches/{id}/items`.',
  },
  crawl_not_in_progress: {
    kind: 'conflict',
    meaning: 'Only a crawl in progress can be cancelled; this one has ended.',
    fix: 'Nothing to cancel: read its pages with `GET /v1/crawls/{id}/pages`.',
  },
  schedule_deleted: {
    kind: 'conflict',
    meaning: 'The schedule is deleted or has ended, so it cannot be paused, resumed or changed.',
    fix: 'Create a new schedule.',
  },
  schedule_ended: {
    kind: 'conflict',
    meaning:
      'A resumed schedule would have no due time left (a one-time schedule whose time has passed, or a cron that has ended).',
    fix: 'Give it a new timing (`PATCH /v1/schedules/{id}`) or delete it.',
  },
  idempotency_key_in_progress: {
    kind: 'conflict',
    meaning: 'A request with the same Idempotency-Key is still running.',
    fix: 'Retry after the `Retry-After` seconds: you then get its stored answer.',
  },
  delivery_in_progress: {
    kind: 'conflict',
    meaning: 'The webhook event is being delivered right now, so it cannot be redelivered yet.',
    fix: 'Retry shortly.',
  },
  file_changed: {
    kind: 'conflict',
    meaning: 'The file’s content changed while it was being completed.',
    fix: 'Complete it again.',
  },
  blob_changed: {
    kind: 'conflict',
    meaning: 'A stored object changed between two steps of one operation.',
    fix: 'Repeat the request.',
  },
  blob_key_conflict: {
    kind: 'conflict',
    meaning: 'An object key clashes with an existing object or folder in the local object store.',
    fix: 'Repeat the request; if it persists, the operator should report it with the request id.',
  },
  payload_too_large: {
    kind: 'payload_too_large',
    meaning: 'The request body (or an object written for it) is larger than the limit.',
    fix: 'Send large inputs as a file (`POST /v1/files`, up to FILES_MAX_BYTES); the operator sets the body limit with BODY_LIMIT_BYTES.',
  },
  idempotency_key_reuse: {
    kind: 'unprocessable',
    meaning: 'The Idempotency-Key was used within 24 hours with a different body.',
    fix: 'Use a new key for a new request.',
  },
  invalid_parser_input: {
    kind: 'unprocessable',
    meaning: 'The parser cannot read this page (for example a PDF given to an HTML parser).',
    fix: 'Use a parser made for this kind of page, or no parser.',
  },
  request_headers_too_large: {
    kind: 'headers_too_large',
    meaning: 'The request headers are larger than the server accepts.',
    fix: 'Send fewer or shorter headers (cookies, long tokens).',
  },
  internal_server_error: {
    kind: 'internal',
    meaning: 'Something unexpected failed in the service. It was logged.',
    fix: 'Retry; if it persists, report it with `metadata.request_id` (and the error `id`).',
  },
  internal_error: {
    kind: 'internal',
    meaning: 'A background job (an answer, a batch item, a crawl page) failed unexpectedly. It was logged.',
    fix: 'Retry; if it persists, report it with the id of the answer, item or page.',
  },
  upstream_error: {
    kind: 'upstream',
    meaning:
      'The target site failed: it could not be resolved or reached, refused the connection, failed TLS, answered an HTTP error, sent too much, or every engine failed.',
    fix: '`detail` says which; check the URL, retry later, or choose another engine (`engine`).',
  },
  model_error: {
    kind: 'upstream',
    meaning: 'The model server failed, or its reply did not fit the schema after a repair attempt.',
    fix: 'Retry; simplify the schema or prompt. Operators: check MODEL_BASE_URL and MODEL_NAME.',
  },
  search_error: {
    kind: 'upstream',
    meaning: 'The search provider answered something unusable (misconfigured or malformed).',
    fix: 'Operators: check the provider (for SearXNG, that its JSON format is enabled).',
  },
  service_unavailable: {
    kind: 'unavailable',
    meaning: 'The service is stopping or cannot serve the request right now.',
    fix: 'Retry after the `Retry-After` seconds (an answer in progress continues on another process).',
  },
  database_unavailable: {
    kind: 'unavailable',
    meaning: 'The database cannot be reached.',
    fix: 'Retry later. Operators: check DATABASE_URL and the database server.',
  },
  storage_unavailable: {
    kind: 'unavailable',
    meaning: 'Object storage (S3) could not complete the request.',
    fix: 'Retry later. Operators: check S3_ENDPOINT and its credentials.',
  },
  search_unavailable: {
    kind: 'unavailable',
    meaning: 'The search provider cannot be reached or is failing.',
    fix: 'Retry later (after `Retry-After` when it is sent), or pass `urls` instead of searching. Operators: check SEARXNG_URL.',
  },
  blob_changing: {
    kind: 'unavailable',
    meaning: 'The stored object kept changing while it was read.',
    fix: 'Retry the request.',
  },
  request_timeout: {
    kind: 'timeout',
    meaning: 'The work did not finish within its time budget (a page fetch, a browser action, an answer).',
    fix: '`detail` names the budget; raise the request’s timeout where it has one, or retry.',
  },
};

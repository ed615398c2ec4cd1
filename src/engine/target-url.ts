import type { AppError } from '../errors.js';
import { errors } from '../errors.js';

const MAX_URL_LENGTH = 8192;

/**
 * Request-time syntax check of a URL the service is asked to fetch: absolute, http or https,
 * with a host, no longer than 8 KiB. Throws a 400 `validation_error` naming `field`.
 * Whether the target may be reached is the guard's decision (`OutboundGuard.assertAllowed`).
 *
 * Parsing is WHATWG's, so `http://2130706433/`, `http://0x7f.1/` and `http://0177.0.0.1/` come
 * back with the canonical host `127.0.0.1` and the guard judges that.
 *
 * @example
 * const url = parseTargetUrl(body.url, 'url'); // URL, or throws AppError('validation')
 */
export function parseTargetUrl(input: unknown, field: string): URL {
  if (typeof input !== 'string' || input.trim() === '') {
    throw invalid(field, 'must be an absolute http(s) URL string');
  }
  const text = input.trim();
  if (text.length > MAX_URL_LENGTH) throw invalid(field, `is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(field, `${JSON.stringify(abbreviate(text))} is not an absolute URL (relative URLs are not accepted)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(field, `scheme ${JSON.stringify(url.protocol.slice(0, -1))} is not allowed; use http or https`);
  }
  if (url.hostname === '') throw invalid(field, 'has no host');
  return url;
}

function invalid(field: string, problem: string): AppError {
  return errors.validation(`${field}: ${problem}`);
}

function abbreviate(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

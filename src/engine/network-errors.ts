import { AppError, errors } from '../errors.js';

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/**
 * Turns a failed outbound request into the client's answer. A guard refusal (an `AppError`
 * anywhere in the cause chain) is returned as is; DNS, connection and TLS failures become
 * 502 `upstream_error` naming the cause; connect timeouts become 504 `request_timeout`.
 * Returns `null` for errors that are not network failures (bugs must stay 500s).
 *
 * @example
 * catch (err) { throw networkFailure(err, url, { connectTimeoutMs }) ?? err; }
 */
export function networkFailure(
  err: unknown,
  target: URL,
  options: { connectTimeoutMs?: number } = {},
): AppError | null {
  const refusal = findInCauses(err, (e): e is AppError => e instanceof AppError);
  if (refusal) return refusal;
  const coded = findInCauses(
    err,
    (e): e is Error & { code: string } => typeof (e as { code?: unknown }).code === 'string',
  );
  if (!coded) return null;
  const host = target.host;
  const code = coded.code;
  const timeoutEvent = (coded as { event?: string }).event;
  if (timeoutEvent === 'connect' || timeoutEvent === 'secureConnect' || timeoutEvent === 'lookup') {
    const limit = options.connectTimeoutMs ? ` within ${options.connectTimeoutMs} ms` : '';
    return errors.timeout(`could not connect to ${host}${limit} (${timeoutEvent} timed out)`, err);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') {
    return errors.upstream(`could not resolve host ${target.hostname} (DNS ${code})`, err);
  }
  if (code === 'ECONNREFUSED') return errors.upstream(`connection to ${host} was refused`, err);
  if (code === 'ECONNRESET' || code === 'EPIPE') return errors.upstream(`${host} closed the connection (${code})`, err);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return errors.upstream(`${host} is unreachable (${code})`, err);
  if (TLS_CODE.test(code))
    return errors.upstream(`TLS handshake with ${host} failed: ${firstLine(coded.message)}`, err);
  if (code.startsWith('HPE_')) return errors.upstream(`${host} sent an invalid HTTP response (${code})`, err);
  if (code.startsWith('ERR_GOT_') || code.startsWith('E')) {
    return errors.upstream(`request to ${host} failed: ${firstLine(coded.message)} (${code})`, err);
  }
  return null;
}

/** The first error in `err`'s cause chain (itself included, 8 deep at most) that passes `test`. */
export function findInCauses<T extends Error>(err: unknown, test: (e: Error) => e is T): T | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (test(current)) return current;
    current = current.cause;
  }
  return undefined;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';

/**
 * The webhook URLs clients may register: https (http only when the operator allows it), and a
 * host that the outbound policy lets the service reach. A host that does not resolve yet is
 * accepted (delivery retries); one that resolves to a private address is refused.
 */
export class WebhookUrlPolicy {
  constructor(
    private readonly guard: OutboundGuard,
    /** WEBHOOK_ALLOW_HTTP: accept plain http (development). */
    private readonly allowHttp: boolean,
  ) {}

  /** The URL as it will be called; throws 400 (syntax, scheme) or 403 (refused host) naming `field`. */
  async validate(input: string, field: string): Promise<string> {
    const url = parseTargetUrl(input, field);
    if (url.protocol === 'http:' && !this.allowHttp) {
      throw errors.validation(`${field}: must be an https URL (plain http needs WEBHOOK_ALLOW_HTTP on the server)`);
    }
    try {
      await this.guard.assertAllowed(url);
    } catch (err) {
      if (err instanceof AppError && err.kind === 'forbidden') {
        throw new AppError('forbidden', err.code, `${field}: ${err.detail}`);
      }
      // A resolver failure (ENOTFOUND, EAI_AGAIN) is not a verdict: delivery checks again at connect time.
      if (err instanceof AppError || typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    }
    return url.href;
  }
}

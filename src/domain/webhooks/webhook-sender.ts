import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { GuardedAgents } from '../../engine/guarded-agents.js';

export interface WebhookRequest {
  url: string;
  eventId: string;
  body: string;
  /** Standard Webhooks secret (`whsec_<base64>`), when the team opted in. */
  signingSecret?: string | null;
}

export interface WebhookResponse {
  statusCode: number | null;
  durationMs: number;
  /** Why there was no 2xx: a transport error, a timeout, or the status received. */
  error: string | null;
  ok: boolean;
}

const MAX_READ = 64 * 1024;

/**
 * POSTs one webhook: through the outbound guard (connect-time address check), redirects not
 * followed, one overall timeout, only 2xx counts. Never throws: the outcome is recorded.
 */
export function sendWebhook(req: WebhookRequest, agents: GuardedAgents, timeoutMs: number): Promise<WebhookResponse> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): WebhookResponse => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      resolve(done(null, 'invalid URL'));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: { ...webhookHeaders(req), 'content-length': Buffer.byteLength(req.body) },
    });
    const timer = setTimeout(() => request.destroy(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    request.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_READ) res.destroy();
      });
      const finish = () => {
        clearTimeout(timer);
        const status = res.statusCode ?? null;
        const ok = status !== null && status >= 200 && status < 300;
        const redirect = status !== null && status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
        resolve(done(status, ok ? null : `receiver answered ${status}${redirect}`));
      };
      res.on('end', finish);
      res.on('close', finish);
    });
    request.on('error', (err) => {
      clearTimeout(timer);
      resolve(done(null, (err as Error).message));
    });
    request.end(req.body);
  });
}

function webhookHeaders(req: WebhookRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Gleaner-Webhooks/1',
  };
  if (req.signingSecret) Object.assign(headers, standardWebhookSignature(req.signingSecret, req.eventId, req.body));
  return headers;
}

/** Standard Webhooks headers: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the decoded secret. */
export function standardWebhookSignature(
  secret: string,
  id: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000).toString();
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

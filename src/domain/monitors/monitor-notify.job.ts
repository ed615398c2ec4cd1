import nodemailer from 'nodemailer';
import type { GuardedFetch } from '../../engine/guarded-fetch.js';
import { exec } from '../../db/sql.js';
import { errors } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Orm } from '../../db/orm.js';
import type { JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import { channelKey, toMonitorRecord } from './monitor-record.js';
import { MONITOR_NOTIFY_JOB, recordChannelHealth, type NotifyPayload } from './monitor-notifier.js';

const ATTEMPTS = 4;
const SEND_TIMEOUT_MS = 30_000;

export interface NotifySettings {
  retryMs: number;
  maxFailures: number;
  smtpUrl: string | null;
  smtpFrom: string;
}

/**
 * Slack and email notifications: a few attempts with doubling waits, then the job fails for
 * good and the channel's streak of failures grows on the monitor (at `maxFailures` the monitor
 * stops using it): a channel that keeps failing is reported, not retried forever.
 */
export function monitorNotifyKind(settings: NotifySettings): JobKindSpec {
  return {
    kind: MONITOR_NOTIFY_JOB,
    maxAttempts: ATTEMPTS,
    leaseMs: 2 * SEND_TIMEOUT_MS,
    backoff: (attempt) => settings.retryMs * 2 ** (attempt - 1),
    async onFailed(em, job, error) {
      const payload = job.payload as unknown as NotifyPayload;
      const [row] = await exec(em, `select * from monitors where id = ? for update`, [payload.monitorId]);
      if (!row) return;
      const key = channelKey(payload.channel);
      const failures = (toMonitorRecord(row).channelState[key]?.failures ?? 0) + 1;
      await recordChannelHealth(em, payload.monitorId, key, failures, error.message, failures >= settings.maxFailures);
    },
  };
}

export function monitorNotifyHandler(deps: {
  orm: Orm;
  fetch: GuardedFetch;
  settings: NotifySettings;
  logger: Logger;
}): JobHandler<NotifyPayload> {
  const transport = deps.settings.smtpUrl ? nodemailer.createTransport(deps.settings.smtpUrl) : null;
  return async (job, { queue, signal }) => {
    const { channel, data } = job.payload;
    if (channel.type === 'slack') await sendSlack(deps.fetch, channel.target, data, signal);
    else if (channel.type === 'email') {
      if (!transport) throw errors.validation('email channels need MONITOR_SMTP_URL on this service');
      await transport.sendMail({ from: deps.settings.smtpFrom, to: channel.target, ...emailOf(data) });
    }
    await queue.transaction(async (em) => {
      if (!(await queue.complete(em, job))) return;
      const [row] = await exec(em, `select channel_state from monitors where id = ? for update`, [
        job.payload.monitorId,
      ]);
      const state = (row?.channel_state ?? {}) as Record<string, { failures?: number }>;
      if ((state[channelKey(channel)]?.failures ?? 0) > 0) {
        await recordChannelHealth(em, job.payload.monitorId, channelKey(channel), 0, null, false);
      }
    });
  };
}

async function sendSlack(
  fetch: GuardedFetch,
  url: string,
  data: Record<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]);
  let response: Response;
  try {
    response = await fetch.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(slackMessage(data)),
      redirect: 'manual',
      signal: timeout,
    });
  } catch (err) {
    throw errors.upstream(`Slack webhook unreachable: ${(err as Error).message}`, err);
  }
  await response.body?.cancel();
  if (!response.ok) throw errors.upstream(`Slack webhook answered HTTP ${response.status}`);
}

const TITLES: Record<string, string> = {
  changed: 'Change detected',
  first_snapshot: 'First snapshot taken',
  run_failed: 'Monitor run failed',
};

/** A Slack incoming-webhook message: `text` (shown in notifications) and the same in blocks. */
export function slackMessage(data: Record<string, unknown>): Record<string, unknown> {
  const monitor = data.monitor as { id: string; query: string };
  const title = `${TITLES[data.type as string] ?? String(data.type)}: ${monitor.query.slice(0, 150)}`;
  const diff = typeof data.diff_url === 'string' ? `\n<${data.diff_url}|View the diff>` : '';
  const text = `${title}\n${String(data.summary)}${diff}`;
  return {
    text,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: `${String(data.summary).slice(0, 2900)}${diff}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `monitor ${monitor.id} · run ${String(data.run_id)}` }] },
    ],
  };
}

export function emailOf(data: Record<string, unknown>): { subject: string; text: string } {
  const monitor = data.monitor as { id: string; query: string };
  const subject = `[monitor] ${TITLES[data.type as string] ?? String(data.type)}: ${monitor.query.replace(/\s+/g, ' ').slice(0, 80)}`;
  const lines = [
    String(data.summary),
    '',
    `Monitor: ${monitor.id}`,
    `Query: ${monitor.query}`,
    `Run: ${String(data.run_id)}`,
    ...(typeof data.diff_url === 'string' ? [`Diff: ${data.diff_url}`] : []),
    ...(typeof data.snapshot_url === 'string' ? [`Snapshot: ${data.snapshot_url}`] : []),
    `Event: ${String(data.id)}`,
  ];
  return { subject, text: lines.join('\n') };
}

import { epochSeconds } from '../shared/time.js';
import type { WebhookEventStatus } from './webhook-event.entity.js';

/** One delivery attempt of an event, with what it delivered (both transports show it). */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  /** `batch.completed`, `crawl.cancelled`, `monitor.changed`, … */
  eventType: string;
  /** The batch, crawl or monitor the event is about. */
  resourceId: string;
  /** 1 to 5 within a series (a redelivery starts a series again). */
  attempt: number;
  url: string;
  /** What the receiver answered; null when it did not (refused, timed out). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The receiver answered 2xx. */
  success: boolean;
  /** Where the event is now: pending, delivering, delivered or failed. */
  eventStatus: WebhookEventStatus;
  /** Epoch seconds. */
  created: number;
}

/** An event as a redelivery leaves it. */
export interface WebhookEventView {
  id: string;
  type: string;
  resourceId: string;
  status: WebhookEventStatus;
}

/** The columns the deliveries list reads (an attempt joined with its event). */
export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: Date | string;
  type: string;
  resource_id: string;
  event_status: WebhookEventStatus;
}

export function webhookDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    resourceId: row.resource_id,
    attempt: row.attempt,
    url: row.url,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    success: row.status_code !== null && row.status_code >= 200 && row.status_code < 300,
    eventStatus: row.event_status,
    created: epochSeconds(new Date(row.created_at)),
  };
}

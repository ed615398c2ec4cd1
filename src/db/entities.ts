import { ApiKeySchema } from '../domain/auth/api-key.entity.js';
import { TeamSchema } from '../domain/auth/team.entity.js';
import { IdempotencyRecordSchema } from '../domain/idempotency/idempotency.entity.js';
import { UrlMapSchema } from '../domain/maps/map.entity.js';
import { BatchItemSchema } from '../domain/batches/batch-item.entity.js';
import { BatchSchema } from '../domain/batches/batch.entity.js';
import { CrawlFrontierSchema } from '../domain/crawls/crawl-frontier.entity.js';
import { CrawlSchema } from '../domain/crawls/crawl.entity.js';
import { PageSchema } from '../domain/pages/page.entity.js';
import { WebhookAttemptSchema } from '../domain/webhooks/webhook-attempt.entity.js';
import { WebhookEventSchema } from '../domain/webhooks/webhook-event.entity.js';
import { ScrapeSchema } from '../domain/scrapes/scrape.entity.js';
import { ServiceSettingSchema } from '../domain/settings/service-setting.entity.js';

/** Every entity schema; the ORM is built from this list. */
export const ENTITIES = [
  TeamSchema,
  ApiKeySchema,
  IdempotencyRecordSchema,
  ServiceSettingSchema,
  PageSchema,
  ScrapeSchema,
  BatchSchema,
  BatchItemSchema,
  WebhookEventSchema,
  WebhookAttemptSchema,
  UrlMapSchema,
  CrawlSchema,
  CrawlFrontierSchema,
];

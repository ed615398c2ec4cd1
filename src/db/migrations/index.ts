import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Foundation } from './migration-0001-foundation.js';
import { Migration0002ServiceSettings } from './migration-0002-service-settings.js';
import { Migration0003PagesAndScrapes } from './migration-0003-pages-and-scrapes.js';
import { Migration0004BatchesAndWebhooks } from './migration-0004-batches-and-webhooks.js';
import { Migration0005Maps } from './migration-0005-maps.js';
import { Migration0006Crawls } from './migration-0006-crawls.js';
import { Migration0007JobQueue } from './migration-0007-job-queue.js';
import { Migration0013JobsCancelled } from './migration-0013-jobs-cancelled.js';

/**
 * The base schema: the migrations written before the service had modules (they create the
 * tables of several modules at once, and the job queue), and later changes to the job queue,
 * which belongs to no module. Listed here, not discovered from
 * disk, so the same list runs under tsx, vitest and compiled builds. Migrations are
 * append-only: a released one is never edited; a change is a new file, in its module's
 * folder (`AppModule.migrations`). src/db/schema.ts runs these and the modules' in name order.
 */
export const BASE_MIGRATIONS: MigrationObject[] = [
  { name: '0001-foundation', class: Migration0001Foundation },
  { name: '0002-service-settings', class: Migration0002ServiceSettings },
  { name: '0003-pages-and-scrapes', class: Migration0003PagesAndScrapes },
  { name: '0004-batches-and-webhooks', class: Migration0004BatchesAndWebhooks },
  { name: '0005-maps', class: Migration0005Maps },
  { name: '0006-crawls', class: Migration0006Crawls },
  { name: '0007-job-queue', class: Migration0007JobQueue },
  { name: '0013-jobs-cancelled', class: Migration0013JobsCancelled },
];

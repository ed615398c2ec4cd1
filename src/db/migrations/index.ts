import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Foundation } from './migration-0001-foundation.js';
import { Migration0002ServiceSettings } from './migration-0002-service-settings.js';
import { Migration0003PagesAndScrapes } from './migration-0003-pages-and-scrapes.js';
import { Migration0004BatchesAndWebhooks } from './migration-0004-batches-and-webhooks.js';
import { Migration0005Maps } from './migration-0005-maps.js';
import { Migration0006Crawls } from './migration-0006-crawls.js';

/**
 * Every migration, in order. They are listed here (not discovered from disk) so the same
 * list runs under tsx, vitest and compiled builds. Migrations are append-only: a released
 * one is never edited; a change is a new file.
 */
export const MIGRATIONS: MigrationObject[] = [
  { name: '0001-foundation', class: Migration0001Foundation },
  { name: '0002-service-settings', class: Migration0002ServiceSettings },
  { name: '0003-pages-and-scrapes', class: Migration0003PagesAndScrapes },
  { name: '0004-batches-and-webhooks', class: Migration0004BatchesAndWebhooks },
  { name: '0005-maps', class: Migration0005Maps },
  { name: '0006-crawls', class: Migration0006Crawls },
];

import type { ApiKeyEvent, BatchProgressEvent, CrawlProgressEvent } from '../../src/pubsub/events.js';
import { teamChannel } from '../../src/pubsub/events.js';
import { builder } from '../builder.js';

const ApiKeyEventRef = builder.objectRef<ApiKeyEvent>('ApiKeyEvent').implement({
  description: 'An API key of the team was created or revoked.',
  fields: (t) => ({
    type: t.exposeString('type', { description: '`api_key.created` or `api_key.revoked`.' }),
    keyId: t.exposeID('keyId'),
    name: t.exposeString('name'),
    at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
  }),
});

export const BatchProgressRef = builder.objectRef<BatchProgressEvent>('BatchProgress').implement({
  description: 'Progress of a batch: sent as items end (at most a few per second) and always when it completes.',
  fields: (t) => ({
    batchId: t.exposeID('batchId'),
    status: t.exposeString('status'),
    total: t.exposeInt('total'),
    completed: t.exposeInt('completed', { description: 'Items completed.' }),
    failed: t.exposeInt('failed', { description: 'Items failed.' }),
    retried: t.exposeInt('retried', { description: 'Retries so far.' }),
    at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
  }),
});

export const CrawlProgressRef = builder.objectRef<CrawlProgressEvent>('CrawlProgress').implement({
  description:
    'Progress of a crawl: sent as pages are recorded (at most a few per second) and always when it completes.',
  fields: (t) => ({
    crawlId: t.exposeID('crawlId'),
    status: t.exposeString('status'),
    pagesCount: t.exposeInt('pagesCount', { description: 'Pages crawled so far.' }),
    failedCount: t.exposeInt('failedCount', { description: 'URLs that could not be crawled.' }),
    blockedCount: t.exposeInt('blockedCount', { description: 'URLs robots.txt did not let the crawl fetch.' }),
    currentDepth: t.exposeInt('currentDepth', { description: 'The deepest page so far (start page: 0).' }),
    at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
  }),
});

/** Every event a team can watch; progress events of monitors join this union. */
const TeamEventRef = builder.unionType('TeamEvent', {
  types: [ApiKeyEventRef, BatchProgressRef, CrawlProgressRef],
  resolveType: (event) =>
    event.type === 'batch.progress'
      ? BatchProgressRef
      : event.type === 'crawl.progress'
        ? CrawlProgressRef
        : ApiKeyEventRef,
});

builder.subscriptionFields((t) => ({
  teamEvents: t.field({
    type: TeamEventRef,
    description: 'Live events of the caller’s team, from every process sharing the database.',
    subscribe: (_, __, ctx) => ctx.pubsub.subscribe(teamChannel(ctx.actor().teamId)),
    resolve: (event) => event,
  }),
}));

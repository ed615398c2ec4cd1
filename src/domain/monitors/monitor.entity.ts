import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/**
 * The monitor tables as the ORM knows them (migration 0012 creates them; a test holds the two
 * equal). The module reads and writes them with SQL (monitor-store.ts): runs and events are
 * recorded in one statement each inside the job's transaction.
 */
export class MonitorRow {
  id!: string;
  teamId!: string;
  status!: string;
  query!: string;
  tracked!: unknown;
  planExplanation = '';
  sourcePolicy!: unknown;
  frequency!: string;
  cron!: string;
  nextRunAt: Date | null = null;
  notification!: unknown;
  webhook: unknown = null;
  outputSchema: unknown = null;
  detection: unknown = null;
  metadata: unknown = {};
  channelState: unknown = {};
  errorMessage: string | null = null;
  lastRun: unknown = null;
  agentId!: string;
  mermaidDiagram!: string;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
  deletedAt: Date | null = null;
}

const monitorRef = () =>
  ({
    kind: 'm:1',
    entity: () => MonitorRow,
    mapToPk: true,
    fieldName: 'monitor_id',
    deleteRule: 'cascade',
    columnType: 'text',
  }) as const;

const text = (nullable = false) => ({ type: 'text', columnType: 'text', nullable }) as const;
const jsonb = (nullable = false) => ({ type: 'json', columnType: 'jsonb', nullable }) as const;
const timestamp = (nullable = true) => ({ type: 'Date', columnType: 'timestamptz', nullable }) as const;

export const MonitorSchema = new EntitySchema<MonitorRow>({
  class: MonitorRow,
  tableName: 'monitors',
  indexes: [{ name: 'monitors_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    status: text(),
    query: text(),
    tracked: jsonb(),
    planExplanation: { type: 'text', columnType: 'text', default: '' },
    sourcePolicy: jsonb(),
    frequency: text(),
    cron: text(),
    nextRunAt: timestamp(),
    notification: jsonb(),
    webhook: jsonb(true),
    outputSchema: jsonb(true),
    detection: jsonb(true),
    metadata: { type: 'json', columnType: 'jsonb', default: '{}' },
    channelState: { type: 'json', columnType: 'jsonb', default: '{}' },
    errorMessage: text(true),
    lastRun: jsonb(true),
    agentId: text(),
    mermaidDiagram: text(),
    createdAt: columns.createdAt(),
    updatedAt: columns.createdAt(),
    deletedAt: timestamp(),
  },
});

export class MonitorPageRow {
  monitorId!: string;
  source!: string;
  etag: string | null = null;
  lastModified: string | null = null;
  engine: string | null = null;
  snapshotKey: string | null = null;
  fingerprint: string | null = null;
  data: unknown = null;
  fetchedAt: Date | null = null;
}

export const MonitorPageSchema = new EntitySchema<MonitorPageRow>({
  class: MonitorPageRow,
  tableName: 'monitor_pages',
  properties: {
    monitorId: { ...monitorRef(), primary: true },
    source: { type: 'text', columnType: 'text', primary: true },
    etag: text(true),
    lastModified: text(true),
    engine: text(true),
    snapshotKey: text(true),
    fingerprint: text(true),
    data: jsonb(true),
    fetchedAt: timestamp(),
  },
});

export class MonitorRunRow {
  id!: string;
  monitorId!: string;
  teamId!: string;
  trigger!: string;
  status!: string;
  scheduledFor: Date | null = null;
  changeDetected = false;
  pages: unknown = [];
  summary: string | null = null;
  error: string | null = null;
  createdAt: Date = new Date();
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
}

export const MonitorRunSchema = new EntitySchema<MonitorRunRow>({
  class: MonitorRunRow,
  tableName: 'monitor_runs',
  indexes: [{ name: 'monitor_runs_monitor_id_created_at_index', properties: ['monitorId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    monitorId: monitorRef(),
    teamId: text(),
    trigger: text(),
    status: text(),
    scheduledFor: timestamp(),
    changeDetected: { type: 'boolean', default: false },
    pages: { type: 'json', columnType: 'jsonb', default: '[]' },
    summary: text(true),
    error: text(true),
    createdAt: columns.createdAt(),
    startedAt: timestamp(),
    finishedAt: timestamp(),
  },
});

export class MonitorEventRow {
  id!: string;
  monitorId!: string;
  teamId!: string;
  runId!: string;
  type!: string;
  changed!: boolean;
  summary!: string;
  snapshotKey: string | null = null;
  diffKey: string | null = null;
  data: unknown = null;
  dataChanges: unknown = null;
  createdAt: Date = new Date();
}

export const MonitorEventSchema = new EntitySchema<MonitorEventRow>({
  class: MonitorEventRow,
  tableName: 'monitor_events',
  indexes: [{ name: 'monitor_events_monitor_id_created_at_id_index', properties: ['monitorId', 'createdAt', 'id'] }],
  properties: {
    id: columns.id(),
    monitorId: monitorRef(),
    teamId: text(),
    runId: text(),
    type: text(),
    changed: { type: 'boolean' },
    summary: text(),
    snapshotKey: text(true),
    diffKey: text(true),
    data: jsonb(true),
    dataChanges: jsonb(true),
    createdAt: columns.createdAt(),
  },
});

export const MONITOR_ENTITIES = [MonitorSchema, MonitorPageSchema, MonitorRunSchema, MonitorEventSchema];

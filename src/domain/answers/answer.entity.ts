import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/**
 * An answer (migration 0009). The module reads and writes it with SQL (answer.service.ts,
 * answer-run.ts); the entity keeps the ORM's view of the schema equal to the migrations.
 */
export class Answer {
  id!: string;
  teamId!: string;
  status = 'in_progress';
  phase = 'queued';
  task!: string;
  request: Record<string, unknown> = {};
  metadata: Record<string, string> = {};
  jsonContent: string | null = null;
  jsonKey: string | null = null;
  sources: string[] = [];
  warning: string | null = null;
  errorCode: string | null = null;
  errorMessage: string | null = null;
  createdAt: Date = new Date();
  completedAt: Date | null = null;
}

export const AnswerSchema = new EntitySchema<Answer>({
  class: Answer,
  tableName: 'answers',
  indexes: [
    {
      name: 'answers_team_id_created_at_index',
      expression: 'create index answers_team_id_created_at_index on answers (team_id, created_at desc, id desc)',
    },
  ],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    status: { type: 'string', columnType: 'text', default: 'in_progress' },
    phase: { type: 'string', columnType: 'text', default: 'queued' },
    task: { type: 'string', columnType: 'text' },
    request: { type: 'json', columnType: 'jsonb', defaultRaw: `'{}'` },
    metadata: { type: 'json', columnType: 'jsonb', defaultRaw: `'{}'` },
    jsonContent: { type: 'text', nullable: true },
    jsonKey: { type: 'text', nullable: true },
    sources: { type: 'json', columnType: 'jsonb', defaultRaw: `'[]'` },
    warning: { type: 'text', nullable: true },
    errorCode: { type: 'text', nullable: true },
    errorMessage: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

import type { AnswerPhase } from './answer-progress.js';

/** An answer as both transports show it (REST in snake_case through the presenter). */
export interface AnswerView {
  id: string;
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled';
  phase: AnswerPhase;
  task: string;
  metadata: Record<string, string>;
  /** The answer as a JSON string (null until completed). */
  jsonContent: string | null;
  /** Signed URL of the same JSON (null until completed). */
  jsonHostedUrl: string | null;
  sources: string[];
  warning: string | null;
  error: { code: string; message: string } | null;
  created: number;
  /** When the answer ended: completed, failed or cancelled. */
  completedAt: number | null;
}

/** The columns of `answers` the views read. */
export interface AnswerRecord {
  id: string;
  team_id: string;
  status: AnswerView['status'];
  phase: AnswerPhase;
  task: string;
  metadata: Record<string, string>;
  json_content: string | null;
  json_key: string | null;
  sources: string[];
  warning: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
}

const seconds = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

export function answerView(row: AnswerRecord, jsonHostedUrl: string | null): AnswerView {
  return {
    id: row.id,
    status: row.status,
    phase: row.phase,
    task: row.task,
    metadata: row.metadata ?? {},
    jsonContent: row.json_content,
    jsonHostedUrl,
    sources: row.sources ?? [],
    warning: row.warning,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    created: seconds(row.created_at),
    completedAt: row.completed_at ? seconds(row.completed_at) : null,
  };
}

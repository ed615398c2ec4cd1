import { z } from 'zod';
import type { AnswerView } from './answer.view.js';

/**
 * The spec's Answer plus decisions.md's `result.sources`, and `status` (`in_progress` until the
 * answer is ready: GET /v1/answers/{id} then returns it; `cancelled` when its client cancelled
 * it), `warning`, `error` when it failed.
 */
export const AnswerObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('answer'),
    created: z.number().int().describe('Epoch seconds.'),
    metadata: z.record(z.string(), z.string()),
    task: z.string(),
    status: z.enum(['in_progress', 'completed', 'failed', 'cancelled']),
    result: z.object({
      json_content: z
        .string()
        .nullable()
        .describe('The answer as a JSON string shaped like `json_format`; null until completed.'),
      json_hosted_url: z.string().nullable().describe('The same JSON as a signed URL (7 days); null until completed.'),
      sources: z.array(z.string()).describe('URLs (and context file ids) the answer drew on.'),
    }),
    completed_at: z
      .number()
      .int()
      .nullable()
      .describe('Epoch seconds: when it ended (completed, failed or cancelled).'),
    warning: z.string().optional().describe('Filled without a model, sources not read, nothing found.'),
    error: z.object({ code: z.string(), message: z.string() }).optional().describe('Why a failed answer failed.'),
  })
  .meta({ id: 'Answer' });

export function presentAnswer(view: AnswerView): z.output<typeof AnswerObject> {
  return {
    id: view.id,
    object: 'answer',
    created: view.created,
    metadata: view.metadata,
    task: view.task,
    status: view.status,
    result: { json_content: view.jsonContent, json_hosted_url: view.jsonHostedUrl, sources: view.sources },
    completed_at: view.completedAt,
    ...(view.warning ? { warning: view.warning } : {}),
    ...(view.error ? { error: view.error } : {}),
  };
}

import type { Logger } from '../../logger.js';
import type { ModuleEvent } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';

/**
 * Where an answer is: `queued` → `searching` → `reading` (done/total) → `composing` →
 * `completed` | `failed`; `cancelled` from any phase before those two.
 */
export type AnswerPhase = 'queued' | 'searching' | 'reading' | 'composing' | 'completed' | 'failed' | 'cancelled';

/** `answer.progress` on the pubsub (the team's channel and `answer:<id>`); small, a few per answer. */
export interface AnswerProgressEvent extends ModuleEvent {
  type: 'answer.progress';
  answerId: string;
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled';
  phase: AnswerPhase;
  /** Sources read so far (phase `reading`), of `total`. */
  done: number;
  total: number;
  message: string;
}

export function answerProgressEvent(
  answer: { id: string; teamId: string },
  phase: AnswerPhase,
  message: string,
  counts: { done?: number; total?: number } = {},
): AnswerProgressEvent {
  const status = phase === 'completed' || phase === 'failed' || phase === 'cancelled' ? phase : 'in_progress';
  return {
    type: 'answer.progress',
    teamId: answer.teamId,
    subject: { kind: 'answer', id: answer.id },
    answerId: answer.id,
    status,
    phase,
    done: counts.done ?? 0,
    total: counts.total ?? 0,
    message,
    at: Date.now(),
  };
}

/** Publishes progress; a pubsub failure is logged, never fails the answer. */
export function publishProgress(pubsub: PubSub, logger: Logger, event: AnswerProgressEvent): void {
  void pubsub.publish(event).catch((err: unknown) => logger.warn({ err, answer: event.answerId }, 'answer progress'));
}

import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { AnswerProgressEvent } from './answer-progress.js';
import { AnswerIdParams, ANSWER_LIMITS, CreateAnswerInput } from './answer.schema.js';
import type { AnswerService } from './answer.service.js';
import type { AnswerView } from './answer.view.js';

const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(ANSWER_LIMITS.pageSize.min).max(ANSWER_LIMITS.pageSize.max).optional(),
};

/** Answers over GraphQL: the same zod schema and service as REST, and live progress. */
export function answerGraphQL(kit: GraphQLKit, answers: AnswerService): void {
  const { builder } = kit;

  const AnswerProgressRef = builder.objectRef<AnswerProgressEvent>('AnswerProgress').implement({
    description:
      'Where an answer is: searching, reading (done of total sources), composing, then completed or failed (or cancelled).',
    fields: (t) => ({
      answerId: t.id({ resolve: (e) => e.answerId }),
      status: t.string({ resolve: (e) => e.status }),
      phase: t.string({ resolve: (e) => e.phase }),
      done: t.int({ description: 'Sources read so far (phase `reading`).', resolve: (e) => e.done }),
      total: t.int({ description: 'Sources being read (phase `reading`).', resolve: (e) => e.total }),
      message: t.string({ resolve: (e) => e.message }),
      at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
    }),
  });
  kit.teamEvent(AnswerProgressRef, ['answer.progress']);

  const AnswerErrorRef = builder.objectRef<{ code: string; message: string }>('AnswerError').implement({
    fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
  });

  const AnswerRef = builder.objectRef<AnswerView>('Answer').implement({
    description: 'An answer to a natural-language task, shaped like its json_format.',
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      phase: t.exposeString('phase'),
      task: t.exposeString('task'),
      metadata: t.expose('metadata', { type: 'JSON' }),
      jsonContent: t.exposeString('jsonContent', { nullable: true, description: 'The answer as a JSON string.' }),
      jsonHostedUrl: t.exposeString('jsonHostedUrl', { nullable: true }),
      sources: t.exposeStringList('sources'),
      warning: t.exposeString('warning', { nullable: true }),
      error: t.expose('error', { type: AnswerErrorRef, nullable: true }),
      created: t.exposeInt('created', { description: 'Epoch seconds.' }),
      completedAt: t.exposeInt('completedAt', { nullable: true, description: 'Epoch seconds.' }),
    }),
  });

  const CreateAnswer = kit.input(CreateAnswerInput, 'CreateAnswerInput', { names: { search: 'AnswerSearchInput' } });

  builder.queryFields((t) => ({
    answer: t.field({
      type: AnswerRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(AnswerIdParams.shape.answer_id),
      resolve: (_, args, ctx) => answers.get(ctx.actor(), String(args.id)),
    }),
    answers: t.field({
      type: [AnswerRef],
      description: 'The team’s answers, newest first.',
      args: { cursor: t.arg.int(), limit: t.arg.int() },
      complexity: kit.pageCost(ANSWER_LIMITS.pageSize.default),
      validate: kit.validate(z.object(pageArgs)),
      resolve: async (_, args, ctx) =>
        (await answers.list(ctx.actor(), kit.parsed<{ cursor?: number; limit?: number }>(args))).answers,
    }),
  }));

  builder.mutationFields((t) => ({
    createAnswer: t.field({
      type: AnswerRef,
      description: 'Answer a task (the same as POST /v1/answers: waits up to ANSWER_WAIT_MS, then `inProgress`).',
      args: { input: t.arg({ type: CreateAnswer, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateAnswerInput) })),
      resolve: (_, args, ctx) =>
        answers.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateAnswerInput> }>(args).input),
    }),
  }));

  builder.subscriptionFields((t) => ({
    answerProgress: t.field({
      type: AnswerProgressRef,
      description: 'Progress of one answer: its state now, then every step until it completes or fails.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(AnswerIdParams.shape.answer_id),
      subscribe: async function* (_, args, ctx) {
        const actor = ctx.actor();
        // Subscribe before reading the state, so no step falls between the two.
        const events = ctx.pubsub.subscribe(resourceChannel('answer', String(args.id)));
        try {
          const current = await answers.progress(actor, String(args.id)); // 404 for another team's answer
          yield current;
          if (current.status !== 'in_progress') return;
          for await (const event of events) {
            const progress = event as AnswerProgressEvent;
            yield progress;
            if (progress.status !== 'in_progress') return;
          }
        } finally {
          await events.return?.();
        }
      },
      resolve: (event) => event,
    }),
  }));
}

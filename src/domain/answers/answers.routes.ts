import { z } from 'zod';
import { defineRoute } from '../../module/route.js';
import { AnswerObject, presentAnswer } from './answer.presenter.js';
import { AnswerIdParams, CreateAnswerInput, ListAnswersQuery } from './answer.schema.js';
import type { AnswerService } from './answer.service.js';

const tags = ['Answers'];

export function answerRoutes({ answers }: { answers: AnswerService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/answers',
      operationId: 'createAnswer',
      summary: 'Answer a task',
      description:
        'Searches (or reads the given `urls`, or the URLs in the task), reads the top sources in parallel, ranks their passages (BM25) and fills `json_format` with the configured model, or without one with the deterministic extractor (then `warning` says so). Waits up to ANSWER_WAIT_MS; an answer not ready by then comes back with `status: in_progress`, and GET /v1/answers/{id} returns it once it is.',
      tags,
      body: CreateAnswerInput,
      responses: {
        200: { description: 'The answer (or, past the wait, the answer in progress).', schema: AnswerObject },
        400: { description: 'Invalid input: task, json_format, urls, search provider, context_file_ids.' },
        403: { description: 'A URL is refused by the outbound policy (`blacklisted_domain`).' },
        404: { description: 'A context file does not exist (`file_not_found`).' },
        502: {
          description:
            'The model failed or its reply never matched json_format (`model_error`), or the search provider answered garbage (`search_error`).',
        },
        503: { description: 'The search provider cannot be reached (`search_unavailable`).' },
        504: { description: 'The model or the answer exceeded its time budget (`request_timeout`).' },
      },
      handler: async ({ actor, body }) => presentAnswer(await answers.create(actor, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/answers',
      operationId: 'listAnswers',
      summary: 'List answers',
      tags,
      query: ListAnswersQuery,
      responses: {
        200: {
          description: 'The team’s answers, newest first.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(AnswerObject),
            cursor: z.number().int().optional(),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { answers: list, nextCursor } = await answers.list(actor, query);
        return {
          object: 'list',
          data: list.map(presentAnswer),
          ...(nextCursor !== null ? { cursor: nextCursor } : {}),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/answers/{answer_id}/cancel',
      operationId: 'cancelAnswer',
      summary: 'Cancel an answer',
      description:
        'Extension: an answer still in progress (past ANSWER_WAIT_MS, or while another request waits on it) stops and records nothing more: it ends `cancelled`, without a result. Cancelling a cancelled answer returns it unchanged.',
      tags,
      params: AnswerIdParams,
      responses: {
        200: { description: 'The answer, cancelled.', schema: AnswerObject },
        404: { description: 'No such answer (`answer_not_found`).' },
        409: { description: 'The answer already completed or failed (`answer_not_in_progress`).' },
      },
      handler: async ({ actor, params }) => presentAnswer(await answers.cancel(actor, params.answer_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/answers/{answer_id}',
      operationId: 'getAnswer',
      summary: 'Get an answer',
      tags,
      params: AnswerIdParams,
      responses: {
        200: {
          description: 'The answer: in progress, completed, failed with `error`, or cancelled.',
          schema: AnswerObject,
        },
        404: { description: 'No such answer (`answer_not_found`).' },
      },
      handler: async ({ actor, params }) => presentAnswer(await answers.get(actor, params.answer_id)),
    }),
  ];
}

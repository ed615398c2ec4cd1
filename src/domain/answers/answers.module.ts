import { exec } from '../../db/sql.js';
import { defineModule } from '../../module/app-module.js';
import { BACKGROUND_LANE } from '../../module/app-module.js';
import { pagesModule } from '../pages/pages.module.js';
import { scrapesModule } from '../scrapes/scrapes.module.js';
import { searchesModule } from '../searches/searches.module.js';
import { filesModule } from '../files/files.module.js';
import { createFileContextSources } from './file-context-sources.js';
import { AnswerSchema } from './answer.entity.js';
import { answerRunHandler, answerRunKind } from './answer-run.job.js';
import { AnswerRunner } from './answer-run.js';
import { AnswerService } from './answer.service.js';
import { ANSWER_SETTINGS, answerSettings } from './answer.settings.js';
import { answerGraphQL } from './answers.graphql.js';
import { answerRoutes } from './answers.routes.js';
import { Migration0009Answers } from './migration-0009-answers.js';

const PURGE_CHUNK = 500;

/**
 * Answers: `POST /v1/answers` runs search → read → rank → compose as an `answer.run` job the
 * API claims at once and runs while the client waits (ANSWER_WAIT_MS); a worker finishes it if
 * the API could not. Context files come from the files module through `AnswerContextSources`.
 */
export const answersModule = defineModule({
  name: 'answers',
  entities: [AnswerSchema],
  migrations: [{ name: '0009-answers', class: Migration0009Answers }],
  settings: ANSWER_SETTINGS,
  configKey: 'answers',
  config: answerSettings,
  services: (ctx) => {
    ctx.use(searchesModule); // registers the stored-pages search provider
    const { executor } = ctx.use(scrapesModule);
    const { pageContent } = ctx.use(pagesModule);
    const context = createFileContextSources(ctx.use(filesModule).files, ctx.settings.maxBytes);
    const runner = new AnswerRunner({
      orm: ctx.orm,
      queue: ctx.queue,
      pubsub: ctx.pubsub,
      blobs: ctx.blobs,
      executor,
      pages: pageContent,
      models: ctx.models,
      search: ctx.search,
      context,
      settings: ctx.settings,
      logger: ctx.logger,
    });
    return {
      answerRunner: runner,
      answers: new AnswerService({
        orm: ctx.orm,
        queue: ctx.queue,
        blobs: ctx.blobs,
        guard: ctx.guard,
        search: ctx.search,
        context,
        runner,
        pubsub: ctx.pubsub,
        settings: ctx.settings,
        work: ctx.work,
        hostedUrlTtlSeconds: ctx.config.scrape.hostedUrlTtlSeconds,
        leaseMs: ctx.config.workers.leaseMs,
        logger: ctx.logger,
      }),
    };
  },
  routes: ({ answers }) => answerRoutes({ answers }),
  // Answers still running in the API after the server drained go back to the queue at once.
  stop: ({ answers }) => answers.stop(),
  graphql: (kit, { answers }) => answerGraphQL(kit, answers),
  maintenance: (_services, { orm, blobs, config }) => [
    // Answers older than RETENTION_DAYS go with their JSON object (answers still running stay).
    async (now) => {
      const cutoff = new Date(now.getTime() - config.retentionDays * 86_400_000);
      let answers = 0;
      for (;;) {
        const rows = await exec<{ json_key: string | null }>(
          orm.em.fork(),
          `delete from answers where id in (
             select id from answers where created_at < ? and status <> 'in_progress' limit ?) returning json_key`,
          [cutoff, PURGE_CHUNK],
        );
        const keys = rows.map((r) => r.json_key).filter((k): k is string => k !== null);
        if (keys.length > 0) await blobs.delete(keys);
        answers += rows.length;
        if (rows.length < PURGE_CHUNK) return { answers };
      }
    },
  ],
  jobs: ({ answerRunner }, ctx) => [
    {
      spec: answerRunKind(ctx.config.workers.leaseMs),
      lane: BACKGROUND_LANE,
      concurrency: 4,
      handler: () => answerRunHandler(answerRunner),
    },
  ],
});

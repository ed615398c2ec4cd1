import { exec, execLarge } from '../../db/sql.js';
import { defineModule } from '../../module/app-module.js';
import { PageContentStore } from './page-content.js';
import { PageViews } from './page-views.js';
import { PageSchema } from './page.entity.js';
import { PAGE_SETTINGS, pageSettings } from './page.settings.js';
import { pagesGraphQL } from './pages.graphql.js';
import { SearchVectors } from './search-vector.js';
import { retrieveRoutes } from './retrieve.routes.js';

const PURGE_CHUNK = 500;
/** PAGE_SEARCH_PIECES when unset on the embedded database. */
const EMBEDDED_SEARCH_PIECES = 100_000;

/** Stored pages (of scrapes, batch items and crawls): their content objects and `GET /v1/retrieve`. */
export const pagesModule = defineModule({
  name: 'pages',
  entities: [PageSchema],
  settings: PAGE_SETTINGS,
  configKey: 'pages',
  config: pageSettings,
  services: (ctx) => {
    const content = new PageContentStore(ctx.blobs, {
      hostedUrlTtlSeconds: ctx.config.scrape.hostedUrlTtlSeconds,
      inlineLimitBytes: ctx.config.scrape.inlineContentLimitBytes,
    });
    // Assembling pays on the embedded database, whose parser runs as WebAssembly; a server's
    // native parser costs less than the assembling (docs/benchmarks.md).
    const searchVectors = new SearchVectors((sql, params) => execLarge(ctx.orm.em.fork(), sql, params), {
      maxPieces: ctx.settings.searchPieces ?? (ctx.config.database.url ? 0 : EMBEDDED_SEARCH_PIECES),
    });
    return { pages: new PageViews(ctx.orm, content), pageContent: content, pageSettings: ctx.settings, searchVectors };
  },
  routes: ({ pages }) => retrieveRoutes({ pages }),
  graphql: (kit, { pages }) => pagesGraphQL(kit, pages),
  maintenance: ({ pageContent }, { orm, config }) => [
    // Pages older than RETENTION_DAYS go with their objects (scrapes go with their page).
    async (now) => {
      const cutoff = new Date(now.getTime() - config.retentionDays * 86_400_000);
      let pages = 0;
      for (;;) {
        const rows = await exec<{ id: string; team_id: string }>(
          orm.em.fork(),
          'delete from pages where id in (select id from pages where created_at < ? limit ?) returning id, team_id',
          [cutoff, PURGE_CHUNK],
        );
        await Promise.all(rows.map((r) => pageContent.remove(r.team_id, r.id)));
        pages += rows.length;
        if (rows.length < PURGE_CHUNK) return { pages };
      }
    },
  ],
});

import type { GraphQLKit } from '../../module/graphql.js';
import type { PageMetadata } from '../../pipeline/types.js';
import type { PageFormat } from './page.entity.js';
import type { PageView, PageViews } from './page-views.js';
import { RetrieveQuery } from './retrieve.schema.js';

/** page_metadata as stored: what the page says about itself and what the fetch saw (snake_case keys). */
export type StoredPageMetadata = PageMetadata & {
  status_code?: number;
  final_url?: string;
  content_type?: string;
  charset?: string;
  engine?: string;
  redirects?: string[];
};

const METADATA_FIELDS: [field: string, key: keyof StoredPageMetadata, description?: string][] = [
  ['description', 'description'],
  ['language', 'language'],
  ['canonicalUrl', 'canonical_url'],
  ['finalUrl', 'final_url', 'Where the fetch ended, after redirects.'],
  ['contentType', 'content_type'],
  ['charset', 'charset'],
  ['engine', 'engine', 'The engine that fetched the page (`http`, `playwright`).'],
  ['ogTitle', 'og_title'],
  ['ogDescription', 'og_description'],
  ['ogImage', 'og_image'],
  ['ogUrl', 'og_url'],
  ['ogType', 'og_type'],
  ['ogSiteName', 'og_site_name'],
  ['ogLocale', 'og_locale'],
  ['twitterCard', 'twitter_card'],
  ['twitterTitle', 'twitter_title'],
  ['twitterDescription', 'twitter_description'],
  ['twitterImage', 'twitter_image'],
  ['favicon', 'favicon'],
  ['keywords', 'keywords'],
  ['author', 'author'],
  ['publishedTime', 'published_time'],
  ['modifiedTime', 'modified_time'],
  ['robots', 'robots'],
];

/** A page view's hosted URL of a format, and its inline text. */
export const hostedUrl = (view: PageView, format: PageFormat) => view.hosted[format] ?? null;
export const inline = (view: PageView, format: 'markdown' | 'html' | 'text' | 'json') => view.inline[format] ?? null;

const metadataTypes = new WeakMap<GraphQLKit['builder'], ReturnType<typeof definePageMetadata>>();

/** The PageMetadata type of a schema (made once per builder; scrapes and other modules show it). */
export function pageMetadataType(kit: GraphQLKit) {
  let ref = metadataTypes.get(kit.builder);
  if (!ref) metadataTypes.set(kit.builder, (ref = definePageMetadata(kit)));
  return ref;
}

function definePageMetadata({ builder }: GraphQLKit) {
  return builder.objectRef<StoredPageMetadata>('PageMetadata').implement({
    description: 'What a page says about itself (title, description, Open Graph…) and what the fetch saw.',
    fields: (t) => ({
      title: t.string({ resolve: (m) => m.title ?? '' }),
      statusCode: t.int({
        nullable: true,
        description: 'HTTP status of the page.',
        resolve: (m) => m.status_code ?? null,
      }),
      redirects: t.stringList({
        nullable: true,
        description: 'URLs redirected through.',
        resolve: (m) => m.redirects ?? null,
      }),
      ...Object.fromEntries(
        METADATA_FIELDS.map(([field, key, description]) => [
          field,
          t.string({ nullable: true, description, resolve: (m) => (m[key] as string | undefined) ?? null }),
        ]),
      ),
    }),
  });
}

/** PageContent of the `retrieve` query, and the query. */
export function pagesGraphQL(kit: GraphQLKit, pages: PageViews): void {
  const { builder } = kit;
  const PageContentRef = builder.objectRef<PageView>('PageContent').implement({
    description: 'Stored content of a scrape, batch item or crawl page.',
    fields: (t) => ({
      retrieveId: t.id({ resolve: (p) => p.page.id }),
      url: t.string({ resolve: (p) => p.page.url }),
      markdownContent: t.string({ nullable: true, resolve: (p) => inline(p, 'markdown') }),
      htmlContent: t.string({ nullable: true, resolve: (p) => inline(p, 'html') }),
      textContent: t.string({ nullable: true, resolve: (p) => inline(p, 'text') }),
      jsonContent: t.string({ nullable: true, resolve: (p) => inline(p, 'json') }),
      markdownHostedUrl: t.string({ nullable: true, resolve: (p) => hostedUrl(p, 'markdown') }),
      htmlHostedUrl: t.string({ nullable: true, resolve: (p) => hostedUrl(p, 'html') }),
      textHostedUrl: t.string({ nullable: true, resolve: (p) => hostedUrl(p, 'text') }),
      jsonHostedUrl: t.string({ nullable: true, resolve: (p) => hostedUrl(p, 'json') }),
      sizeExceeded: t.exposeBoolean('sizeExceeded'),
    }),
  });

  builder.queryField('retrieve', (t) =>
    t.field({
      type: PageContentRef,
      args: { retrieveId: t.arg.id({ required: true }), formats: t.arg.stringList() },
      validate: kit.validate(kit.fromCamel(RetrieveQuery)),
      resolve: (_, args, ctx) => {
        const query = kit.parsed<{ retrieve_id: string; formats?: ('html' | 'markdown' | 'text' | 'json')[] }>(args);
        return pages.retrieve(ctx.actor(), query.retrieve_id, query.formats);
      },
    }),
  );
}

import { createBlockContext, heading, paragraph, randomBlock } from './article-blocks.js';
import { renderPage } from './page-chrome.js';
import { capitalise, escapeHtml, nounPhrase, paragraphText, sentence } from './prose.js';
import { createRandom } from './random.js';
import {
  type ArticlePlan,
  articleNeighbours,
  LISTING_PAGE_SIZE,
  listingPath,
  listingPaths,
  PRIVATE_PAGES,
  privatePath,
  type SitePlan,
} from './site-plan.js';

/** Article pages are between these sizes (UTF-8 bytes): 30–80 KB whether a KB is 1,000 or 1,024 bytes. */
export const MIN_PAGE_BYTES = 30 * 1024;
export const MAX_PAGE_BYTES = 80_000;

/**
 * One article page: chrome, then sections of blocks until the page reaches a size drawn from
 * [31 KiB, 77 kB], then the sidebar (table of contents, related pages). Each page draws from its own
 * random stream, so page 17 is the same whatever the page count.
 */
export function renderArticle(plan: SitePlan, article: ArticlePlan): string {
  const rng = createRandom(`${plan.seed}/article/${article.index}`);
  const target = rng.int(31 * 1024, 77_000);
  const neighbours = articleNeighbours(plan, article, rng);
  const context = createBlockContext(neighbours.inText);
  const intro = `<p class="lead">${paragraphText(rng, context, 2)}</p>`;
  const header = `<header class="article-header"><h1>${escapeHtml(article.title)}</h1><p class="byline">By <a href="/about.html">the ${capitalise(nounPhrase(rng, 1))} team</a> · <time datetime="${article.published}">${article.published}</time> · ${rng.int(3, 25)} min read</p></header>`;
  const sections: string[] = [];
  const toc: string[] = [];
  const shell = {
    title: article.title,
    description: sentence(rng, { term: (r) => nounPhrase(r, 1) }),
    path: article.href,
    type: 'article' as const,
    published: article.published,
    breadcrumb: [
      { href: '/index.html', title: 'Home' },
      { href: listingPath(article.section, 1), title: capitalise(article.section) },
    ],
    main: '',
    aside: '',
  };
  const chromeBytes = Buffer.byteLength(renderPage(shell, createRandom('size-probe')));
  let bytes = chromeBytes + Buffer.byteLength(header + intro) + 2048; // 2 KiB: sidebar and pager
  while (bytes < target) {
    const title = capitalise(nounPhrase(rng, rng.int(2, 4)));
    const blocks = [heading(rng, 2, title), paragraph(rng, context)];
    for (let i = rng.int(2, 6); i > 0; i--) {
      blocks.push(rng.chance(0.12) ? heading(rng, 3) : randomBlock(rng, context, article.slug));
    }
    const section = `<section>${blocks.join('\n')}</section>`;
    const size = Buffer.byteLength(section);
    if (bytes + size > MAX_PAGE_BYTES - 1024 && sections.length > 0) break;
    sections.push(section);
    toc.push(`<li><a href="#${blocks[0]!.match(/id="([^"]+)"/)![1]}">${escapeHtml(title)}</a></li>`);
    bytes += size;
  }
  const pager = [
    neighbours.prev ? `<a rel="prev" href="${neighbours.prev.href}">← ${escapeHtml(neighbours.prev.title)}</a>` : '',
    neighbours.next ? `<a rel="next" href="${neighbours.next.href}">${escapeHtml(neighbours.next.title)} →</a>` : '',
  ].join('');
  const related = neighbours.related.map((a) => `<li><a href="${a.href}">${escapeHtml(a.title)}</a></li>`).join('');
  shell.main = `<article class="doc">${header}${intro}${sections.join('\n')}<nav class="pager" aria-label="Pagination">${pager}</nav></article>`;
  shell.aside = `<h2>On this page</h2><ul class="toc">${toc.join('')}</ul><h2>Related</h2><ul>${related}</ul><div class="ad-slot" data-ad-slot="sidebar"><a href="https://ads.example.net/click?id=${rng.int(1, 1e6)}"><img src="/images/ad-300x250.png" alt="Advertisement" width="300" height="250"></a></div>`;
  return renderPage(shell, rng);
}

/** A section listing page: 30 articles with an excerpt each, and numbered pagination. */
export function renderListing(plan: SitePlan, section: string, page: number): string {
  const rng = createRandom(`${plan.seed}/listing/${section}/${page}`);
  const articles = plan.bySection.get(section) ?? [];
  const slice = articles.slice((page - 1) * LISTING_PAGE_SIZE, page * LISTING_PAGE_SIZE);
  const context = createBlockContext([]);
  const items = slice.map(
    (a) =>
      `<li class="card"><h2><a href="${a.href}">${escapeHtml(a.title)}</a></h2><p><time datetime="${a.published}">${a.published}</time> · ${capitalise(a.category.replace(/-/g, ' '))}</p><p>${paragraphText(rng, context, 2)}</p></li>`,
  );
  const pages = listingPaths(section, articles.length);
  const pager = pages
    .map((p, i) => (i + 1 === page ? `<span aria-current="page">${i + 1}</span>` : `<a href="${p}">${i + 1}</a>`))
    .join(' ');
  return renderPage(
    {
      title: page === 1 ? capitalise(section) : `${capitalise(section)}, page ${page}`,
      description: `Every ${section} article, newest last.`,
      path: listingPath(section, page),
      type: 'website',
      breadcrumb: [{ href: '/index.html', title: 'Home' }],
      main: `<h1>${capitalise(section)}</h1><ul class="cards">${items.join('\n')}</ul><nav class="pagination" aria-label="Pages">${pager}</nav>`,
      aside: '',
    },
    rng,
  );
}

/** The home page: links to every section and to the first article of each. */
export function renderHome(plan: SitePlan): string {
  const rng = createRandom(`${plan.seed}/home`);
  const context = createBlockContext(plan.articles.slice(0, 20));
  const sections = [...plan.bySection.entries()].map(
    ([section, articles]) =>
      `<section><h2><a href="${listingPath(section, 1)}">${capitalise(section)}</a></h2><p>${articles.length} articles.</p><ul>${articles
        .slice(0, 5)
        .map((a) => `<li><a href="${a.href}">${escapeHtml(a.title)}</a></li>`)
        .join('')}</ul></section>`,
  );
  const main = `<h1>Gleaner Bench Docs</h1><p class="lead">${paragraphText(rng, context, 3)}</p>${sections.join('\n')}`;
  return renderPage(
    {
      title: 'Home',
      description: 'Benchmark site.',
      path: '/index.html',
      type: 'website',
      breadcrumb: [],
      main,
      aside: '',
    },
    rng,
  );
}

/** A plain page (about, privacy, drafts). */
export function renderPlain(plan: SitePlan, path: string, title: string): string {
  const rng = createRandom(`${plan.seed}/plain${path}`);
  const context = createBlockContext([]);
  const body = Array.from({ length: 4 }, () => `<p>${paragraphText(rng, context)}</p>`).join('\n');
  const next = path.startsWith('/private/') ? nextDraftLink(path) : '';
  return renderPage(
    {
      title,
      description: title,
      path,
      type: 'website',
      breadcrumb: [{ href: '/index.html', title: 'Home' }],
      main: `<h1>${escapeHtml(title)}</h1>${body}${next}`,
      aside: '',
    },
    rng,
  );
}

/** Drafts link to each other in a chain, so only robots.txt keeps a crawler out of them. */
function nextDraftLink(path: string): string {
  const n = Number(/draft-(\d+)\.html$/.exec(path)?.[1] ?? PRIVATE_PAGES);
  return n < PRIVATE_PAGES ? `<p><a href="${privatePath(n)}">Next draft</a></p>` : '';
}

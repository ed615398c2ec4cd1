import type { LinkTarget } from './article-blocks.js';
import { slugify, titlePhrase } from './prose.js';
import { createRandom, type Random } from './random.js';

/** The sections of the site and their categories (the second path segment of an article). */
export const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  docs: ['getting-started', 'configuration', 'api', 'deployment', 'troubleshooting'],
  guides: ['migration', 'performance', 'security', 'operations'],
  blog: ['engineering', 'product', 'community'],
  news: ['releases', 'announcements'],
  reference: ['cli', 'http-api', 'sdk', 'errors'],
  tutorials: ['beginner', 'intermediate', 'advanced'],
};

/** Articles listed per section page (`/docs/index.html`, `/docs/page/2.html`, ...). */
export const LISTING_PAGE_SIZE = 30;
/** Pages under `/private/`, linked from the footer but disallowed by robots.txt. */
export const PRIVATE_PAGES = 20;

export interface ArticlePlan extends LinkTarget {
  /** 0-based position among articles; the generator draws the page from its own stream. */
  index: number;
  section: string;
  category: string;
  slug: string;
  /** `YYYY-MM-DD`, also the sitemap `lastmod`. */
  published: string;
  /** Position within its section (prev/next links and listing pages follow it). */
  sectionIndex: number;
}

export interface SitePlan {
  seed: string;
  articles: ArticlePlan[];
  bySection: Map<string, ArticlePlan[]>;
}

const FIRST_DAY = Date.UTC(2021, 0, 1);

/** Every article's path, title and date, decided before any page is written so pages can link to each other. */
export function planSite(seed: string, articleCount: number): SitePlan {
  const rng = createRandom(`${seed}/plan`);
  const sectionNames = Object.keys(SECTIONS);
  const bySection = new Map<string, ArticlePlan[]>(sectionNames.map((name) => [name, []]));
  const articles: ArticlePlan[] = [];
  for (let index = 0; index < articleCount; index++) {
    const section = sectionNames[rng.zipfIndex(sectionNames.length + 1) % sectionNames.length]!;
    const category = rng.pick(SECTIONS[section]!);
    const title = titlePhrase(rng);
    const slug = `${slugify(title)}-${index.toString(36)}`;
    const published = new Date(FIRST_DAY + rng.int(0, 5 * 365) * 86_400_000).toISOString().slice(0, 10);
    const siblings = bySection.get(section)!;
    const article: ArticlePlan = {
      index,
      section,
      category,
      slug,
      title,
      published,
      href: `/${section}/${category}/${slug}.html`,
      sectionIndex: siblings.length,
    };
    siblings.push(article);
    articles.push(article);
  }
  return { seed, articles, bySection };
}

/** The internal pages an article links to: in-text links, related articles, prev/next. */
export function articleNeighbours(
  plan: SitePlan,
  article: ArticlePlan,
  rng: Random,
): { inText: ArticlePlan[]; related: ArticlePlan[]; prev?: ArticlePlan; next?: ArticlePlan } {
  const siblings = plan.bySection.get(article.section)!;
  const pool = plan.articles.filter((a) => a !== article);
  const sameSection = siblings.filter((a) => a !== article);
  return {
    inText: rng.sample(pool, rng.int(8, 16)),
    related: rng.sample(sameSection.length >= 6 ? sameSection : pool, 6),
    prev: siblings[article.sectionIndex - 1],
    next: siblings[article.sectionIndex + 1],
  };
}

/** Listing page paths of a section: `/docs/index.html`, `/docs/page/2.html`, ... */
export function listingPaths(section: string, articleCount: number): string[] {
  const pages = Math.max(1, Math.ceil(articleCount / LISTING_PAGE_SIZE));
  return Array.from({ length: pages }, (_, i) => listingPath(section, i + 1));
}

export function listingPath(section: string, page: number): string {
  return page === 1 ? `/${section}/index.html` : `/${section}/page/${page}.html`;
}

export function privatePath(i: number): string {
  return `/private/drafts/draft-${i + 1}.html`;
}

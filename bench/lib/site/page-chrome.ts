import type { LinkTarget } from './article-blocks.js';
import { capitalise, escapeHtml } from './prose.js';
import type { Random } from './random.js';
import { listingPath, privatePath, SECTIONS } from './site-plan.js';

/** Everything around the content: what real sites wrap every page in, and what cleanup must remove. */
export interface PageShell {
  title: string;
  description: string;
  /** Root-relative path of this page (canonical and og:url are built from it). */
  path: string;
  /** `article` pages get Article JSON-LD and published time. */
  type: 'article' | 'website';
  published?: string;
  breadcrumb: LinkTarget[];
  /** The `<main>` content. */
  main: string;
  /** Sidebar content (table of contents, related pages); empty = no sidebar. */
  aside: string;
}

const SITE_NAME = 'Gleaner Bench Docs';
/** Stands for the site's origin in sitemaps and robots.txt; the static server substitutes it per request. */
export const ORIGIN_PLACEHOLDER = '__SITE_ORIGIN__';

const STYLE = `:root{--fg:#1f2328;--bg:#fff;--accent:#0969da;--muted:#59636e;--border:#d1d9e0}
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
.site-header{display:flex;align-items:center;gap:2rem;padding:.75rem 2rem;border-bottom:1px solid var(--border)}
.site-header nav a{color:var(--muted);text-decoration:none;margin-right:1rem}.layout{display:grid;grid-template-columns:16rem 1fr 14rem;gap:2rem;max-width:90rem;margin:0 auto}
article h1{font-size:2.25rem;line-height:1.2}article pre{overflow:auto;padding:1rem;background:#f6f8fa;border-radius:6px}
.table-scroll{overflow-x:auto}table.data{border-collapse:collapse}table.data td,table.data th{border:1px solid var(--border);padding:.25rem .5rem}
.admonition{border-left:4px solid var(--accent);padding:.5rem 1rem;background:#ddf4ff}.cookie-consent{position:fixed;bottom:0;left:0;right:0;padding:1rem;background:#24292f;color:#fff}
.site-footer{margin-top:4rem;padding:2rem;border-top:1px solid var(--border);color:var(--muted)}.site-footer .columns{display:grid;grid-template-columns:repeat(4,1fr)}`;

const ANALYTICS = `(function(w,d){w.dataLayer=w.dataLayer||[];function g(){w.dataLayer.push(arguments)}g('js',new Date());
g('config','G-BENCH0000',{anonymize_ip:true,page_path:location.pathname});var s=d.createElement('script');s.async=1;
s.src='/assets/analytics.js';d.head.appendChild(s);d.addEventListener('click',function(e){var a=e.target.closest('a');
if(a&&a.host!==location.host){g('event','outbound',{url:a.href})}})})(window,document);`;

export function renderPage(shell: PageShell, rng: Random): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    renderHead(shell),
    '<body class="docs-page">',
    `<a class="skip-link" href="#content">Skip to content</a>`,
    cookieBanner(),
    siteHeader(shell.path),
    `<div class="layout">`,
    sideNavigation(shell.path, rng),
    `<main id="content" role="main">${breadcrumb(shell.breadcrumb)}${shell.main}</main>`,
    shell.aside ? `<aside class="sidebar" aria-label="On this page">${shell.aside}</aside>` : '',
    `</div>`,
    siteFooter(),
    `<script>${ANALYTICS}</script>`,
    `<script src="/assets/app.js" defer></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderHead(shell: PageShell): string {
  const title = escapeHtml(`${shell.title} | ${SITE_NAME}`);
  const description = escapeHtml(shell.description);
  const jsonLd =
    shell.type === 'article'
      ? `<script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'TechArticle',
          headline: shell.title,
          datePublished: shell.published,
          author: { '@type': 'Organization', name: SITE_NAME },
        })}</script>`
      : '';
  return [
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<meta name="description" content="${description}">`,
    `<link rel="canonical" href="${shell.path}">`,
    `<meta property="og:type" content="${shell.type}">`,
    `<meta property="og:title" content="${escapeHtml(shell.title)}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta property="og:url" content="${shell.path}">`,
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:image" content="/images/og-default.png">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    shell.published ? `<meta property="article:published_time" content="${shell.published}T09:00:00Z">` : '',
    `<link rel="icon" href="/favicon.ico">`,
    `<link rel="stylesheet" href="/assets/site.css">`,
    `<style>${STYLE}</style>`,
    jsonLd,
    '</head>',
  ].join('\n');
}

function cookieBanner(): string {
  return `<div id="cookie-consent" class="cookie-consent" role="dialog" aria-label="Cookie consent"><p>We use cookies to measure how the documentation is used. <a href="/privacy.html">Privacy policy</a></p><button type="button" data-consent="accept">Accept</button><button type="button" data-consent="reject">Reject</button></div>`;
}

function siteHeader(path: string): string {
  const links = Object.keys(SECTIONS)
    .map(
      (s) =>
        `<a href="${listingPath(s, 1)}"${path.startsWith(`/${s}/`) ? ' aria-current="page"' : ''}>${capitalise(s)}</a>`,
    )
    .join('');
  return `<header class="site-header"><a class="logo" href="/index.html"><img src="/images/logo.svg" alt="${SITE_NAME} home" width="120" height="32"></a><nav aria-label="Main">${links}<a href="https://github.com/example/gleaner">GitHub</a></nav><form class="search" action="/search.html" role="search"><input type="search" name="q" placeholder="Search the docs" aria-label="Search"><button type="submit">Search</button></form></header>`;
}

/** The left navigation: every category of every section, the section of this page expanded. */
function sideNavigation(path: string, rng: Random): string {
  const groups = Object.entries(SECTIONS).map(([section, categories]) => {
    const open = path.startsWith(`/${section}/`);
    const items = categories
      .map((c) => `<li><a href="${listingPath(section, 1)}#${c}">${capitalise(c.replace(/-/g, ' '))}</a></li>`)
      .join('');
    return `<details${open ? ' open' : ''}><summary>${capitalise(section)}</summary><ul>${items}</ul></details>`;
  });
  const version = `v${rng.int(1, 4)}.${rng.int(0, 20)}`;
  return `<nav class="side-nav" aria-label="Sections"><p class="version">Version ${version}</p>${groups.join('')}</nav>`;
}

function breadcrumb(items: readonly LinkTarget[]): string {
  if (items.length === 0) return '';
  const links = items.map((item) => `<li><a href="${item.href}">${escapeHtml(item.title)}</a></li>`).join('');
  return `<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${links}</ol></nav>`;
}

function siteFooter(): string {
  const columns = Object.entries(SECTIONS)
    .slice(0, 4)
    .map(([section, categories]) => {
      const links = categories.map(
        (c) => `<li><a href="${listingPath(section, 1)}#${c}">${capitalise(c.replace(/-/g, ' '))}</a></li>`,
      );
      return `<div><h4>${capitalise(section)}</h4><ul>${links.join('')}</ul></div>`;
    });
  const drafts = `<li><a href="${privatePath(0)}">Drafts</a></li>`;
  return `<footer class="site-footer"><div class="columns">${columns.join('')}<div><h4>Company</h4><ul><li><a href="/about.html">About</a></li><li><a href="/privacy.html">Privacy</a></li>${drafts}</ul></div></div><p>© 2021–2025 ${SITE_NAME}. Content licensed under CC BY 4.0.</p></footer>`;
}

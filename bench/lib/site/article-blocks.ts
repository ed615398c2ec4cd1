import { codeBlock } from './code-samples.js';
import {
  capitalise,
  escapeHtml,
  identifier,
  nounPhrase,
  paragraphText,
  pickProduct,
  type ProseContext,
  sentence,
  slugify,
} from './prose.js';
import type { Random } from './random.js';

/** A page another page can link to. */
export interface LinkTarget {
  href: string;
  title: string;
}

/** What the block builders need from the page being written. */
export interface BlockContext extends ProseContext {
  /** Internal pages this article links to in its text. */
  links: readonly LinkTarget[];
  /** Counter for figure and table numbering. */
  figure: number;
}

/** Inline markup for {X} slots: code spans, internal and external links, emphasis. */
export function createBlockContext(links: readonly LinkTarget[]): BlockContext {
  const context: BlockContext = {
    links,
    figure: 0,
    term(rng) {
      const roll = rng.next();
      if (roll < 0.3) return `<code>${identifier(rng)}</code>`;
      if (roll < 0.5 && links.length > 0) {
        const target = rng.pick(links);
        return `<a href="${target.href}">${escapeHtml(target.title.toLowerCase())}</a>`;
      }
      if (roll < 0.55) {
        const product = pickProduct(rng);
        return `<a href="https://docs.example.org/${slugify(product)}/" rel="noopener">${escapeHtml(product)}</a>`;
      }
      if (roll < 0.65) return `<em>${nounPhrase(rng, 2)}</em>`;
      if (roll < 0.72) return `<strong>${nounPhrase(rng, 2)}</strong>`;
      return nounPhrase(rng, rng.int(1, 2));
    },
  };
  return context;
}

export function paragraph(rng: Random, context: BlockContext): string {
  return `<p>${paragraphText(rng, context)}</p>`;
}

export function heading(rng: Random, level: 2 | 3 | 4, text = capitalise(nounPhrase(rng, rng.int(2, 4)))): string {
  const id = slugify(text);
  return `<h${level} id="${id}">${escapeHtml(text)}<a class="anchor" href="#${id}" aria-hidden="true">#</a></h${level}>`;
}

/** A bulleted or numbered list, sometimes two levels deep. */
export function list(rng: Random, context: BlockContext, depth = 0): string {
  const tag = rng.chance(0.35) ? 'ol' : 'ul';
  const items: string[] = [];
  const count = rng.int(3, 8);
  for (let i = 0; i < count; i++) {
    let item = rng.chance(0.5)
      ? sentence(rng, context)
      : `<strong>${nounPhrase(rng, 2)}</strong>: ${sentence(rng, context)}`;
    if (depth === 0 && rng.chance(0.15)) item += list(rng, context, depth + 1);
    items.push(`<li>${item}</li>`);
  }
  return `<${tag}>${items.join('')}</${tag}>`;
}

/** A data table: usually 3–6 columns; one in five is wide (10–18 columns, scrolls horizontally). */
export function table(rng: Random, context: BlockContext): string {
  const wide = rng.chance(0.2);
  const columns = wide ? rng.int(10, 18) : rng.int(3, 6);
  const rows = rng.int(4, wide ? 12 : 16);
  const head = Array.from({ length: columns }, (_, i) =>
    i === 0 ? 'Name' : capitalise(nounPhrase(rng, rng.int(1, 2))),
  );
  const body: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells = head.map((_, c) => `<td>${cell(rng, context, c)}</td>`);
    body.push(`<tr>${cells.join('')}</tr>`);
  }
  context.figure += 1;
  const caption = rng.chance(0.5)
    ? `<caption>Table ${context.figure}. ${escapeHtml(capitalise(nounPhrase(rng, 3)))}</caption>`
    : '';
  const markup =
    `<table class="${wide ? 'data wide' : 'data'}">${caption}<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${body.join('')}</tbody></table>`;
  return wide ? `<div class="table-scroll">${markup}</div>` : markup;
}

function cell(rng: Random, context: BlockContext, column: number): string {
  if (column === 0) return `<code>${identifier(rng)}</code>`;
  const roll = rng.next();
  if (roll < 0.35) return String(rng.int(0, 100_000));
  if (roll < 0.5) return `${(rng.next() * 100).toFixed(rng.int(0, 2))}${rng.pick([' ms', ' %', ' MB', ''])}`;
  if (roll < 0.6) return rng.pick(['yes', 'no', '—', 'n/a']);
  if (roll < 0.68) return context.term(rng);
  return nounPhrase(rng, rng.int(1, 3));
}

/** A figure with an image (alt text, explicit size, lazy loading) and a caption. */
export function figure(rng: Random, context: BlockContext, pageSlug: string): string {
  context.figure += 1;
  const alt = `${capitalise(nounPhrase(rng, 3))} diagram showing ${nounPhrase(rng, 2)} and ${nounPhrase(rng, 2)}`;
  const src = `/images/${pageSlug}-${context.figure}.${rng.pick(['png', 'jpg', 'webp'])}`;
  const width = rng.pick([640, 800, 1200]);
  const img = `<img src="${src}" alt="${escapeHtml(alt)}" width="${width}" height="${Math.round(width * 0.5625)}" loading="lazy" decoding="async">`;
  if (rng.chance(0.2)) return `<p>${img}</p>`;
  return `<figure class="figure">${img}<figcaption>Figure ${context.figure}. ${escapeHtml(sentence(rng, { term: (r) => nounPhrase(r, 1) }))}</figcaption></figure>`;
}

export function blockquote(rng: Random, context: BlockContext): string {
  const cite = rng.chance(0.5) ? `<footer>— <cite>${escapeHtml(pickProduct(rng))} documentation</cite></footer>` : '';
  return `<blockquote><p>${paragraphText(rng, context, rng.int(1, 3))}</p>${cite}</blockquote>`;
}

export function definitionList(rng: Random, context: BlockContext): string {
  const entries: string[] = [];
  for (let i = rng.int(2, 5); i > 0; i--) {
    entries.push(`<dt><code>${identifier(rng)}</code></dt><dd>${sentence(rng, context)}</dd>`);
  }
  return `<dl>${entries.join('')}</dl>`;
}

export function callout(rng: Random, context: BlockContext): string {
  const kind = rng.pick(['note', 'warning', 'tip']);
  return `<div class="admonition ${kind}" role="note"><p class="admonition-title">${capitalise(kind)}</p><p>${paragraphText(rng, context, rng.int(1, 2))}</p></div>`;
}

/** One article block, drawn with weights that resemble documentation and blog pages. */
export function randomBlock(rng: Random, context: BlockContext, pageSlug: string): string {
  const roll = rng.next();
  if (roll < 0.42) return paragraph(rng, context);
  if (roll < 0.56) return list(rng, context);
  if (roll < 0.68) return codeBlock(rng);
  if (roll < 0.77) return table(rng, context);
  if (roll < 0.84) return figure(rng, context, pageSlug);
  if (roll < 0.9) return blockquote(rng, context);
  if (roll < 0.95) return callout(rng, context);
  return definitionList(rng, context);
}

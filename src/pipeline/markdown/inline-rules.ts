import type TurndownService from 'turndown';
import { ancestorNamed, resolveUrl } from '../dom.js';
import { formatAltText, formatDestination } from './escape.js';
import type { PageElement, PageNode } from '../page-node.js';

/** Per-conversion state the rules read (conversion is synchronous, so one object per converter). */
export interface ConversionState {
  baseUrl: URL;
}

/** Anchors that only decorate a heading ("¶", "#", "§", "🔗" permalinks). */
export const PERMALINK_TEXT = /^[\s¶§#🔗]*$/u;

/**
 * Inline rules: absolute links and images, iframes and media as links, strikethrough, sub/sup
 * (kept as `<sub>`/`<sup>`: GFM has no syntax for them and renders the tags), math as `$…$`
 * from its TeX annotation, quotes, and task-list checkboxes.
 */
export function inlineRules(service: TurndownService, state: ConversionState): void {
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node) => link(content, node as PageElement, state),
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => imageMarkdown(node as PageElement, state.baseUrl),
  });
  service.addRule('frame', {
    filter: (node) => node.nodeName === 'IFRAME' || node.nodeName === 'FRAME',
    replacement: (_content, node) => embedMarkdown(node as PageElement, state.baseUrl),
  });
  service.addRule('media', {
    filter: ['video', 'audio'],
    replacement: (_content, node) => {
      const link = embedMarkdown(node as PageElement, state.baseUrl);
      return link ? `\n\n${link}\n\n` : '';
    },
  });
  // Inline formatting whose content spans blocks (misnested or unclosed tags) cannot be expressed
  // with delimiters: they would open in one paragraph and close in another. Such content stays plain.
  service.addRule('emphasis', {
    filter: ['em', 'i'],
    replacement: (content, _node, options) => delimit(content, options.emDelimiter ?? '*'),
  });
  service.addRule('strong', {
    filter: ['strong', 'b'],
    replacement: (content, _node, options) => delimit(content, options.strongDelimiter ?? '**'),
  });
  service.addRule('strikethrough', {
    filter: (node) => node.nodeName === 'DEL' || node.nodeName === 'S' || node.nodeName === 'STRIKE',
    replacement: (content) => delimit(content, '~~'),
  });
  service.addRule('subSup', {
    filter: ['sub', 'sup'],
    replacement: (content, node) => {
      const tag = node.nodeName.toLowerCase();
      return content.trim() ? `<${tag}>${content.trim()}</${tag}>` : '';
    },
  });
  service.addRule('math', {
    filter: isMath,
    replacement: (_content, node) => {
      const { tex, display } = mathTex(node as PageElement);
      if (!tex) return '';
      return display ? `\n\n$$\n${tex}\n$$\n\n` : `$${tex}$`;
    },
  });
  service.addRule('quote', {
    filter: 'q',
    replacement: (content) => `“${content}”`,
  });
  service.addRule('checkbox', {
    filter: (node) => node.nodeName === 'INPUT',
    replacement: (_content, node) => {
      const input = node as PageElement;
      if (input.getAttribute('type')?.toLowerCase() !== 'checkbox' || !ancestorNamed(input, 'LI')) return '';
      return input.hasAttribute('checked') ? '[x] ' : '[ ] ';
    },
  });
}

function delimit(content: string, delimiter: string): string {
  if (!content.trim()) return '';
  if (/\n\s*\n/.test(content)) return content;
  return `${delimiter}${content}${delimiter}`;
}

function link(content: string, anchor: PageElement, state: ConversionState): string {
  const rawHref = anchor.getAttribute('href');
  let text = flattenBlocks(content);
  // The content is escaped markdown: a "#" permalink at the start of a line reads "\#".
  if (rawHref?.trim().startsWith('#') && PERMALINK_TEXT.test(text.replace(/\\/g, ''))) return '';
  const href = resolveUrl(rawHref, state.baseUrl);
  let pad = '';
  if (!text) {
    text = flattenBlocks(anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? '');
    // An icon-only link had no text for turndown to keep the space before it.
    const before = anchor.previousSibling;
    if (text && before?.nodeType === 3 && /\S$/.test(before.textContent ?? '')) pad = ' ';
  }
  if (!href) return text;
  if (!text) return '';
  const destination = formatDestination(href);
  if (content.includes('\n')) return blockLink(content, destination) ?? `\n\n[${text}](${destination})\n\n`;
  return `${pad}[${text}](${destination})`;
}

/**
 * A link wrapping blocks (a card: heading and paragraph) keeps its blocks; the link goes on the
 * first one (`### [Title](url)` then the text). Null when the first block cannot carry a link.
 */
function blockLink(content: string, destination: string): string | null {
  const blocks = content
    .trim()
    .split(/\n{2,}/)
    .filter((block) => block.trim());
  const first = blocks[0];
  if (!first || first.includes('\n')) return null;
  const heading = /^(#{1,6} )(.+)$/.exec(first);
  let linked: string;
  if (heading) linked = `${heading[1]}[${heading[2]}](${destination})`;
  else if (/^(?:[-+*>|]|\d+\.|```)/.test(first)) return null;
  else linked = `[${first}](${destination})`;
  return `\n\n${[linked, ...blocks.slice(1)].join('\n\n')}\n\n`;
}

/** Link text cannot hold blocks: headings, list markers and line breaks fold into one line. */
function flattenBlocks(content: string): string {
  return content
    .replace(/^[ \t]*(?:#{1,6}[ \t]+|[-+*][ \t]+|\d+\.[ \t]+)/gm, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** An image as `![alt](absolute src)`; '' when it has no usable source (none, `data:`, `javascript:`). */
export function imageMarkdown(img: PageElement, baseUrl: URL): string {
  const src = resolveUrl(imageSource(img), baseUrl);
  if (!src) return '';
  const alt = formatAltText(img.getAttribute('alt') ?? '');
  return `![${alt}](${formatDestination(src)})`;
}

/** The real image of lazy-loaded markup (placeholder `src`, real URL in `data-src` or `srcset`). */
function imageSource(img: PageElement): string | null {
  const src = img.getAttribute('src')?.trim() ?? '';
  if (src && !src.startsWith('data:')) return src;
  const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-lazy-src') ?? img.getAttribute('data-original');
  if (lazy) return lazy;
  const srcset = img.getAttribute('srcset') ?? img.getAttribute('data-srcset');
  return srcset ? (srcset.trim().split(/\s+/)[0] ?? null) : null;
}

/** Frames and media become links: their title, else what they are and where they come from. */
export function embedMarkdown(element: PageElement, baseUrl: URL): string {
  const source = element.getAttribute('src') ?? element.querySelector('source[src]')?.getAttribute('src');
  const src = resolveUrl(source, baseUrl);
  if (!src) return '';
  const title = (element.getAttribute('title') ?? element.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim();
  const url = new URL(src);
  const file = decodeURIComponent(url.pathname.split('/').pop() ?? '') || url.host;
  const fallback =
    element.nodeName === 'VIDEO'
      ? `Video: ${file}`
      : element.nodeName === 'AUDIO'
        ? `Audio: ${file}`
        : `Embedded content from ${url.host}`;
  return `[${formatAltText(title || fallback)}](${formatDestination(src)})`;
}

/** MathML, KaTeX and MathJax output: what the math rule converts. */
export function isMath(node: PageNode): boolean {
  return node.nodeName === 'MATH' || hasClass(node, 'katex') || node.nodeName === 'MJX-CONTAINER';
}

/** The TeX of a math element (annotation, else `alttext`, else its text) and whether it is displayed as a block. */
export function mathTex(element: PageElement): { tex: string; display: boolean } {
  const mathElement = element.nodeName === 'MATH' ? element : element.querySelector('math');
  const tex =
    mathElement?.querySelector('annotation[encoding="application/x-tex"]')?.textContent ??
    mathElement?.getAttribute('alttext') ??
    mathElement?.textContent ??
    element.textContent ??
    '';
  const body = tex.replace(/\s+/g, ' ').trim();
  const display =
    mathElement?.getAttribute('display') === 'block' ||
    hasClass(element, 'katex-display') ||
    hasClass(element.parentElement, 'katex-display') ||
    element.getAttribute('display') === 'true';
  return { tex: body, display };
}

function hasClass(node: PageNode | null, name: string): boolean {
  if (!node || node.nodeType !== 1) return false;
  const className = (node as PageElement).getAttribute('class');
  return !!className && ` ${className} `.includes(` ${name} `);
}

import { hasDescendantNamed, resolveUrl } from '../dom.js';
import { codeBlock, inlineCode } from './code-rules.js';
import { formatDestination } from './escape.js';
import { embedMarkdown, imageMarkdown, isMath, mathTex } from './inline-rules.js';
import { CHECKED, type Fragment, type MarkdownDraft, NO_SPACE, stripReserved, UNCHECKED } from './markdown-draft.js';
import {
  BLOCK_ELEMENTS,
  HEADINGS,
  SKIPPED,
  escapeHtml,
  edgeSpaces,
  firstLinkable,
  hasBlockChild,
  hasBlockDescendant,
  hasVisibleText,
  isBlankNode,
  isBlock,
  isBlockNode,
  isList,
  isPermalink,
  isSpace,
  NEEDS_WORK,
  type EdgeSpaces,
} from './converter-html-nodes.js';
import { writeBlockquote, writeDefinitionList, writeList, writeTable } from './converter-html-blocks.js';
import type { PageDocument, PageElement, PageNode, PageText } from '../page-node.js';

/**
 * The HTML a native converter is given: the content subtree rewritten in one walk so that the
 * converter's output follows the rules the turndown converter follows (docs/content-pipeline.md,
 * "Markdown"). The converter writes the inline markdown (paragraphs, headings, emphasis, links,
 * `<br>`, `<hr>`, `<sub>`/`<sup>`, text escaping); every other block becomes a `<div>`, every other
 * inline element its content, and what the project lays out itself (lists, quotes, code, tables,
 * definition lists, math, images, embeds, link destinations) goes through the draft as
 * placeholders, with the content it holds converted as snippets (converter-html-blocks.ts).
 */

const INLINE_MARKUP: Record<string, string> = { em: 'em', i: 'em', strong: 'strong', b: 'strong' };
const STRUCK = new Set(['del', 's', 'strike']);

export function writeConverterHtml(root: PageElement | PageDocument, baseUrl: URL, draft: MarkdownDraft): string {
  const writer = new ConverterHtmlWriter(draft, baseUrl);
  writer.children(root);
  return writer.html;
}

export class ConverterHtmlWriter {
  html = '';
  /** The last thing written is inline content ending in a non-space (the converter would add a space). */
  private afterText = false;
  /** Inside a heading or a link: blocks and `<br>` flatten to spaces (markdown has one line there). */
  private flat = 0;
  /** Inside a list the converter lays out itself (`nativeList`). */
  inNativeList = 0;
  /** The node the pending block link goes on, its destination placeholder, and the node whose block opened it. */
  private linkTarget: PageNode | null = null;
  private linkDestination = '';
  private linkOpenedBy: PageNode | null = null;

  constructor(
    readonly draft: MarkdownDraft,
    readonly baseUrl: URL,
  ) {}

  /**
   * Writes the children of `parent`; inline runs beside blocks are wrapped so they stay paragraphs
   * of their own. In a list item a nested list belongs to the run before it (one line break, as
   * the list item rule writes it).
   */
  children(parent: PageNode, wrapRuns = true): void {
    const inItem = (parent as PageElement).localName === 'li';
    const mixed = wrapRuns && this.flat === 0 && hasBlockChild(parent, inItem);
    let run: PageNode | null = null;
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (mixed) {
        const block = child.nodeType === 1 && isBlock(child as PageElement) && !(inItem && isList(child));
        if (!block && !run && !isBlankNode(child)) {
          run = child;
          this.openBlock('div', run);
        } else if (block && run) {
          this.closeBlock('div', run);
          run = null;
        }
        if (!run && !block) continue;
      }
      this.node(child);
    }
    if (run) this.closeBlock('div', run);
  }

  /** Captures what `write` writes, for a snippet converted besides the page. */
  capture(write: () => void): string {
    const saved = { html: this.html, afterText: this.afterText, flat: this.flat, inNativeList: this.inNativeList };
    this.html = '';
    this.afterText = false;
    this.flat = 0;
    this.inNativeList = 0;
    write();
    const html = this.html;
    Object.assign(this, saved);
    return html;
  }

  /** A fragment standing as a block of its own. */
  blockFragment(fragment: Fragment): void {
    this.html += `<div>${this.draft.placeholder(fragment)}</div>`;
    this.afterText = false;
  }

  /** A fragment inside the current line. */
  inlineFragment(fragment: Fragment): void {
    if (!fragment) return;
    this.html += this.draft.placeholder(fragment);
    this.afterText = true;
  }

  /** Whether inline content comes right before `node` among its siblings (blank text aside). */
  followsInline(node: PageNode): boolean {
    for (let previous = node.previousSibling; previous; previous = previous.previousSibling) {
      if (isBlankNode(previous)) continue;
      return !isBlockNode(previous) || isList(previous);
    }
    return false;
  }

  /** A list the converter lays out itself (items of inline content: converter-html-blocks.ts). */
  nativeList(list: PageElement): void {
    this.inNativeList++;
    const ordered = list.localName === 'ol';
    const start = ordered ? Number.parseInt(list.getAttribute('start') ?? '1', 10) : 1;
    this.html += ordered ? (Number.isFinite(start) && start !== 1 ? `<ol start="${start}">` : '<ol>') : '<ul>';
    for (let item = list.firstChild; item; item = item.nextSibling) {
      if (item.nodeType !== 1) continue;
      this.html += '<li>';
      this.afterText = false;
      this.children(item, false);
      this.html += '</li>';
    }
    this.html += ordered ? '</ol>' : '</ul>';
    this.afterText = false;
    this.inNativeList--;
  }

  /** Writes `element`'s content as a block (a layout table's cell). */
  blockOf(element: PageElement): void {
    this.openBlock('div', element);
    this.children(element);
    this.closeBlock('div', element);
  }

  node(node: PageNode): void {
    if (node.nodeType === 3 || node.nodeType === 4) this.text((node as PageText).data);
    else if (node.nodeType === 1) this.element(node as PageElement);
  }

  private text(data: string): void {
    if (!data) return;
    // One scan decides whether the text needs anything done (most text does not).
    if (NEEDS_WORK.test(data)) {
      const text = stripReserved(data);
      if (!text) return;
      this.html += escapeHtml(text);
      this.afterText = !isSpace(text.charCodeAt(text.length - 1));
      return;
    }
    this.html += data;
    this.afterText = !isSpace(data.charCodeAt(data.length - 1));
  }

  private element(element: PageElement): void {
    const name = element.localName;
    if (SKIPPED.has(name)) return;
    // Attribute lookups scan the element's attributes; most elements have none.
    if (element.hasAttributes() || name === 'math' || name === 'mjx-container') {
      if (name !== 'a' && element.getAttribute('role') === 'button') return;
      if (isMath(element)) return this.math(element);
    }
    const markup = INLINE_MARKUP[name];
    if (markup) return this.inline(element, markup);
    switch (name) {
      case 'a':
        return this.link(element);
      case 'img':
        return this.inlineFragment(imageMarkdown(element, this.baseUrl));
      case 'code':
        return this.codeSpan(element);
      case 'kbd':
      case 'samp':
      case 'tt':
        return this.inlineFragment(inlineCode(element.textContent ?? ''));
      case 'br':
        if (this.flat > 0) return this.text(' ');
        this.html += '<br>';
        this.afterText = false;
        return;
      case 'iframe':
      case 'frame':
        return this.inlineFragment(embedMarkdown(element, this.baseUrl));
      case 'q':
        this.text('“');
        this.children(element, false);
        return this.text('”');
      case 'input':
        return this.checkbox(element);
      case 'sub':
      case 'sup':
        if (!hasVisibleText(element)) return;
        return this.wrapInline(element, name);
    }
    if (STRUCK.has(name)) return this.inline(element, 'del');
    if (this.flat > 0 && BLOCK_ELEMENTS.has(name)) {
      this.text(' ');
      this.children(element, false);
      return this.text(' ');
    }
    this.block(element, name);
  }

  private block(element: PageElement, name: string): void {
    if (HEADINGS.has(name)) {
      const tag = name;
      this.openBlock(tag, element);
      this.flat++;
      this.children(element, false);
      this.flat--;
      return this.closeBlock(tag, element);
    }
    switch (name) {
      case 'pre': {
        const block = codeBlock(element);
        return block ? this.blockFragment(block) : undefined;
      }
      case 'video':
      case 'audio': {
        const link = embedMarkdown(element, this.baseUrl);
        return link ? this.blockFragment(link) : undefined;
      }
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        return writeList(this, element);
      case 'table':
        return writeTable(this, element);
      case 'dl':
        return writeDefinitionList(this, element);
      case 'blockquote':
        return writeBlockquote(this, element);
      case 'hr':
        this.html += '<hr>';
        this.afterText = false;
        return;
      case 'p':
        return this.container(element, hasBlockChild(element, false) ? 'div' : 'p');
    }
    if (BLOCK_ELEMENTS.has(name)) return this.container(element, 'div');
    this.children(element, false);
  }

  private container(element: PageElement, tag: string): void {
    this.openBlock(tag, element);
    this.children(element);
    this.closeBlock(tag, element);
  }

  /** Opens a block (`first`: its element, or the first node of an inline run); a pending block link goes on it. */
  private openBlock(tag: string, first: PageNode): void {
    this.html += `<${tag}>`;
    this.afterText = false;
    if (first === this.linkTarget) {
      this.html += `<a href="${this.linkDestination}">`;
      this.flat++;
      this.linkTarget = null;
      this.linkOpenedBy = first;
    }
  }

  private closeBlock(tag: string, first: PageNode): void {
    if (first === this.linkOpenedBy) {
      this.html += '</a>';
      this.flat--;
      this.linkOpenedBy = null;
    }
    this.html += `</${tag}>`;
    this.afterText = false;
  }

  private inline(element: PageElement, tag: string): void {
    // Formatting around blocks (an unclosed <em>) cannot be written with delimiters: its content stays plain.
    if (hasBlockDescendant(element)) return this.children(element, false);
    this.wrapInline(element, tag);
  }

  private wrapInline(element: PageElement, tag: string): void {
    const edges = edgeSpaces(element);
    if (!hasVisibleText(element) && !hasDescendantNamed(element, 'img')) {
      // Empty formatting is dropped; its space stays.
      if (edges.leading) this.text(' ');
      return;
    }
    this.flanked(edges, () => {
      if (tag === 'del' && this.afterText) this.html += NO_SPACE;
      this.html += `<${tag}>`;
      this.children(element, false);
      this.html += `</${tag}>`;
      this.afterText = true;
    });
  }

  /**
   * Writes an inline element with the whitespace at the edges of its text outside it, as turndown
   * does: `e<b> f </b>g` is `e **f** g` (the converter would write `e** f** g`, which is not bold).
   */
  private flanked(edges: EdgeSpaces, write: () => void): void {
    if (edges.leading) this.text(' ');
    write();
    if (edges.trailing) this.text(' ');
  }

  private codeSpan(code: PageElement): void {
    const text = (code.textContent ?? '').replace(/\s+/g, ' ');
    const edges = { leading: text.startsWith(' '), trailing: text.endsWith(' ') };
    this.flanked(edges, () => this.inlineFragment(inlineCode(text.trim())));
  }

  private link(anchor: PageElement): void {
    const rawHref = anchor.getAttribute('href');
    if (rawHref?.trim().startsWith('#') && isPermalink(anchor)) return;
    const href = resolveUrl(rawHref, this.baseUrl);
    if (!href) return this.children(anchor, false);
    const destination = this.draft.placeholder(formatDestination(href));
    if (this.flat === 0 && hasBlockDescendant(anchor)) return this.blockLink(anchor, destination);
    if (!hasVisibleText(anchor) && !hasDescendantNamed(anchor, 'img')) {
      const label = (anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? '').replace(/\s+/g, ' ');
      if (!label.trim()) return;
      // No NO_SPACE here: an icon-only link had no text to keep the space before it, the converter adds one.
      this.html += `<a href="${destination}">${escapeHtml(stripReserved(label.trim()))}</a>`;
      this.afterText = true;
      return;
    }
    this.flanked(edgeSpaces(anchor), () => {
      if (this.afterText) this.html += NO_SPACE;
      this.html += `<a href="${destination}">`;
      this.flat++;
      this.children(anchor, false);
      this.flat--;
      this.html += '</a>';
      this.afterText = true;
    });
  }

  /**
   * A link wrapping blocks (a card: heading and text) goes on its first block (`### [Title](url)`,
   * then the text); when that block is a list, quote, code or table, the link is the whole text on one line.
   */
  private blockLink(anchor: PageElement, destination: string): void {
    const target = firstLinkable(anchor);
    // An inline first node carries the link only when it starts a run of its own (beside blocks).
    const placeable = target && (isBlockNode(target) || (target.parentNode && hasBlockChild(target.parentNode, false)));
    if (!target || !placeable) {
      const text = escapeHtml(stripReserved((anchor.textContent ?? '').replace(/\s+/g, ' ').trim()));
      if (text) this.html += `<div><a href="${destination}">${text}</a></div>`;
      this.afterText = false;
      return;
    }
    this.linkTarget = target;
    this.linkDestination = destination;
    this.children(anchor);
    this.linkTarget = null;
  }

  private checkbox(input: PageElement): void {
    if (input.getAttribute('type')?.toLowerCase() !== 'checkbox') return;
    let item: PageNode | null = input.parentNode;
    while (item && (item as PageElement).localName !== 'li') item = item.parentNode;
    if (!item) return;
    this.html += input.hasAttribute('checked') ? CHECKED : UNCHECKED;
  }

  private math(element: PageElement): void {
    const { tex, display } = mathTex(element);
    if (!tex) return;
    if (display) this.blockFragment(`$$\n${tex}\n$$`);
    else this.inlineFragment(`$${tex}$`);
  }
}

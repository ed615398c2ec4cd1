import { hasDescendantNamed, isBlankText, resolveUrl } from '../dom.js';
import { NEVER_CONTENT } from './block-rules.js';
import { codeBlock, inlineCode } from './code-rules.js';
import { formatDestination } from './escape.js';
import { embedMarkdown, imageMarkdown, isMath, mathTex, PERMALINK_TEXT } from './inline-rules.js';
import { CHECKED, type Fragment, type MarkdownDraft, NO_SPACE, stripReserved, UNCHECKED } from './markdown-draft.js';
import { writeBlockquote, writeDefinitionList, writeList, writeTable } from './converter-html-blocks.js';

/**
 * The HTML a native converter is given: the content subtree rewritten in one walk so that the
 * converter's output follows the rules the turndown converter follows (docs/content-pipeline.md,
 * "Markdown"). The converter writes the inline markdown (paragraphs, headings, emphasis, links,
 * `<br>`, `<hr>`, `<sub>`/`<sup>`, text escaping); every other block becomes a `<div>`, every other
 * inline element its content, and what the project lays out itself (lists, quotes, code, tables,
 * definition lists, math, images, embeds, link destinations) goes through the draft as
 * placeholders, with the content it holds converted as snippets (converter-html-blocks.ts).
 */

/** turndown's block elements, plus `<video>` (a block link): they start a block, all others are inline. */
const BLOCKS = new Set(
  (
    'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE ' +
    'FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT ' +
    'OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL VIDEO'
  ).split(' '),
);

const SKIPPED = new Set(NEVER_CONTENT.map((name) => name.toUpperCase()));
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
/** Blocks that cannot carry a link on their first line (the turndown rule's `blockLink` gives up on them). */
const UNLINKABLE = new Set(['UL', 'OL', 'MENU', 'DIR', 'BLOCKQUOTE', 'PRE', 'TABLE', 'DL', 'HR']);
const INLINE_MARKUP: Record<string, string> = { EM: 'em', I: 'em', STRONG: 'strong', B: 'strong' };
const STRUCK = new Set(['DEL', 'S', 'STRIKE']);

export function writeConverterHtml(root: Element | Document, baseUrl: URL, draft: MarkdownDraft): string {
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
  /** The node the pending block link goes on, its destination placeholder, and the node whose block opened it. */
  private linkTarget: Node | null = null;
  private linkDestination = '';
  private linkOpenedBy: Node | null = null;

  constructor(
    readonly draft: MarkdownDraft,
    readonly baseUrl: URL,
  ) {}

  /**
   * Writes the children of `parent`; inline runs beside blocks are wrapped so they stay paragraphs
   * of their own. In a list item a nested list belongs to the run before it (one line break, as
   * the list item rule writes it).
   */
  children(parent: Node, wrapRuns = true): void {
    const inItem = parent.nodeName === 'LI';
    const mixed = wrapRuns && this.flat === 0 && hasBlockChild(parent, inItem);
    let run: Node | null = null;
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (mixed) {
        const block = child.nodeType === 1 && isBlock(child as Element) && !(inItem && isList(child));
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
    const saved = { html: this.html, afterText: this.afterText, flat: this.flat };
    this.html = '';
    this.afterText = false;
    this.flat = 0;
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
  followsInline(node: Node): boolean {
    for (let previous = node.previousSibling; previous; previous = previous.previousSibling) {
      if (isBlankNode(previous)) continue;
      return !isBlockNode(previous) || isList(previous);
    }
    return false;
  }

  /** Writes `element`'s content as a block (a layout table's cell). */
  blockOf(element: Element): void {
    this.openBlock('div', element);
    this.children(element);
    this.closeBlock('div', element);
  }

  node(node: Node): void {
    if (node.nodeType === 3 || node.nodeType === 4) this.text((node as Text).data);
    else if (node.nodeType === 1) this.element(node as Element);
  }

  private text(data: string): void {
    const text = stripReserved(data);
    if (!text) return;
    this.html += escapeHtml(text);
    this.afterText = !/\s$/.test(text);
  }

  private element(element: Element): void {
    const name = element.nodeName;
    if (SKIPPED.has(name) || (name !== 'A' && element.getAttribute('role') === 'button')) return;
    if (isMath(element)) return this.math(element);
    const markup = INLINE_MARKUP[name];
    if (markup) return this.inline(element, markup);
    switch (name) {
      case 'A':
        return this.link(element);
      case 'IMG':
        return this.inlineFragment(imageMarkdown(element, this.baseUrl));
      case 'CODE':
        return this.flanked(element.textContent ?? '', (text) =>
          this.inlineFragment(inlineCode(text.replace(/\s+/g, ' '))),
        );
      case 'KBD':
      case 'SAMP':
      case 'TT':
        return this.inlineFragment(inlineCode(element.textContent ?? ''));
      case 'BR':
        if (this.flat > 0) return this.text(' ');
        this.html += '<br>';
        this.afterText = false;
        return;
      case 'IFRAME':
      case 'FRAME':
        return this.inlineFragment(embedMarkdown(element, this.baseUrl));
      case 'Q':
        this.text('“');
        this.children(element, false);
        return this.text('”');
      case 'INPUT':
        return this.checkbox(element);
      case 'SUB':
      case 'SUP':
        if (isBlankText(element.textContent)) return;
        return this.wrapInline(element, name.toLowerCase());
    }
    if (STRUCK.has(name)) return this.inline(element, 'del');
    if (this.flat > 0 && BLOCKS.has(name)) {
      this.text(' ');
      this.children(element, false);
      return this.text(' ');
    }
    this.block(element, name);
  }

  private block(element: Element, name: string): void {
    if (HEADINGS.has(name)) {
      const tag = name.toLowerCase();
      this.openBlock(tag, element);
      this.flat++;
      this.children(element, false);
      this.flat--;
      return this.closeBlock(tag, element);
    }
    switch (name) {
      case 'PRE': {
        const block = codeBlock(element);
        return block ? this.blockFragment(block) : undefined;
      }
      case 'VIDEO':
      case 'AUDIO': {
        const link = embedMarkdown(element, this.baseUrl);
        return link ? this.blockFragment(link) : undefined;
      }
      case 'UL':
      case 'OL':
      case 'MENU':
      case 'DIR':
        return writeList(this, element);
      case 'TABLE':
        return writeTable(this, element);
      case 'DL':
        return writeDefinitionList(this, element);
      case 'BLOCKQUOTE':
        return writeBlockquote(this, element);
      case 'HR':
        this.html += '<hr>';
        this.afterText = false;
        return;
      case 'P':
        return this.container(element, hasBlockChild(element, false) ? 'div' : 'p');
    }
    if (BLOCKS.has(name)) return this.container(element, 'div');
    this.children(element, false);
  }

  private container(element: Element, tag: string): void {
    this.openBlock(tag, element);
    this.children(element);
    this.closeBlock(tag, element);
  }

  /** Opens a block (`first`: its element, or the first node of an inline run); a pending block link goes on it. */
  private openBlock(tag: string, first: Node): void {
    this.html += `<${tag}>`;
    this.afterText = false;
    if (first === this.linkTarget) {
      this.html += `<a href="${this.linkDestination}">`;
      this.flat++;
      this.linkTarget = null;
      this.linkOpenedBy = first;
    }
  }

  private closeBlock(tag: string, first: Node): void {
    if (first === this.linkOpenedBy) {
      this.html += '</a>';
      this.flat--;
      this.linkOpenedBy = null;
    }
    this.html += `</${tag}>`;
    this.afterText = false;
  }

  private inline(element: Element, tag: string): void {
    // Formatting around blocks (an unclosed <em>) cannot be written with delimiters: its content stays plain.
    if (hasBlockDescendant(element)) return this.children(element, false);
    this.wrapInline(element, tag);
  }

  private wrapInline(element: Element, tag: string): void {
    const text = element.textContent ?? '';
    if (isBlankText(text) && !hasDescendantNamed(element, 'IMG')) {
      // Empty formatting is dropped; its space stays.
      if (text) this.text(' ');
      return;
    }
    this.flanked(text, () => {
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
   * `write` gets the text trimmed.
   */
  private flanked(text: string, write: (trimmed: string) => void): void {
    const leading = /^\s/.test(text);
    const trailing = /\s$/.test(text);
    if (leading) this.text(' ');
    write(leading || trailing ? text.trim() : text);
    if (trailing) this.text(' ');
  }

  private link(anchor: Element): void {
    const rawHref = anchor.getAttribute('href');
    const text = anchor.textContent ?? '';
    if (rawHref?.trim().startsWith('#') && PERMALINK_TEXT.test(text) && !hasDescendantNamed(anchor, 'IMG')) return;
    const href = resolveUrl(rawHref, this.baseUrl);
    if (!href) return this.children(anchor, false);
    const destination = this.draft.placeholder(formatDestination(href));
    if (this.flat === 0 && hasBlockDescendant(anchor)) return this.blockLink(anchor, destination);
    if (isBlankText(text) && !hasDescendantNamed(anchor, 'IMG')) {
      const label = (anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? '').replace(/\s+/g, ' ');
      if (!label.trim()) return;
      // No NO_SPACE here: an icon-only link had no text to keep the space before it, the converter adds one.
      this.html += `<a href="${destination}">${escapeHtml(stripReserved(label.trim()))}</a>`;
      this.afterText = true;
      return;
    }
    this.flanked(text, () => {
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
  private blockLink(anchor: Element, destination: string): void {
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

  private checkbox(input: Element): void {
    if (input.getAttribute('type')?.toLowerCase() !== 'checkbox') return;
    let item: Node | null = input.parentNode;
    while (item && item.nodeName !== 'LI') item = item.parentNode;
    if (!item) return;
    this.html += input.hasAttribute('checked') ? CHECKED : UNCHECKED;
  }

  private math(element: Element): void {
    const { tex, display } = mathTex(element);
    if (!tex) return;
    if (display) this.blockFragment(`$$\n${tex}\n$$`);
    else this.inlineFragment(`$${tex}$`);
  }
}

function isBlock(element: Element): boolean {
  return BLOCKS.has(element.nodeName);
}

function isBlockNode(node: Node): boolean {
  return node.nodeType === 1 && isBlock(node as Element);
}

function isBlankNode(node: Node): boolean {
  if (node.nodeType === 3 || node.nodeType === 4) return isBlankText((node as Text).data);
  return node.nodeType !== 1;
}

/** Whether `parent` has a block child (`listsInline`: not counting lists, as in a list item). */
function hasBlockChild(parent: Node, listsInline: boolean): boolean {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && isBlock(child as Element) && !(listsInline && isList(child))) return true;
  }
  return false;
}

const LISTS = new Set(['UL', 'OL', 'MENU', 'DIR']);

function isList(node: Node): boolean {
  return LISTS.has(node.nodeName);
}

function hasBlockDescendant(parent: Node): boolean {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1) continue;
    if (isBlock(child as Element) || hasBlockDescendant(child)) return true;
  }
  return false;
}

/**
 * The block a link wrapping blocks goes on: its first content, looking through wrappers that hold
 * blocks (a card's `<div>`). An inline first node stands for the run of inline content it starts.
 * Null when the first block cannot carry a link.
 */
function firstLinkable(container: Element): Node | null {
  for (let child = container.firstChild; child; child = child.nextSibling) {
    if (isBlankNode(child)) continue;
    if (child.nodeType !== 1) return child;
    const element = child as Element;
    if (SKIPPED.has(element.nodeName)) continue;
    if (!isBlock(element) || HEADINGS.has(element.nodeName)) return element;
    if (UNLINKABLE.has(element.nodeName)) return null;
    return hasBlockDescendant(element) ? firstLinkable(element) : element;
  }
  return null;
}

function escapeHtml(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}

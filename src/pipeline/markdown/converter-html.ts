import { codeBlock, inlineCode } from './code-rules.js';
import { embedMarkdown, imageMarkdown, isMath } from './inline-rules.js';
import { type Fragment, type MarkdownDraft, stripReserved } from './markdown-draft.js';
import {
  BLOCK_ELEMENTS,
  HEADINGS,
  SKIPPED,
  escapeHtml,
  hasBlockChild,
  hasVisibleText,
  isBlankNode,
  isBlock,
  isBlockNode,
  isList,
  isSpace,
  NEEDS_WORK,
} from './converter-html-nodes.js';
import { writeBlockquote, writeDefinitionList, writeList, writeTable } from './converter-html-blocks.js';
import {
  writeCheckbox,
  writeCodeSpan,
  writeInline,
  writeLink,
  writeMath,
  writeWrapped,
} from './converter-html-inline.js';
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
  afterText = false;
  /** Inside a heading or a link: blocks and `<br>` flatten to spaces (markdown has one line there). */
  flat = 0;
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

  text(data: string): void {
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
      if (isMath(element)) return writeMath(this, element);
    }
    const markup = INLINE_MARKUP[name];
    if (markup) return writeInline(this, element, markup);
    switch (name) {
      case 'a':
        return writeLink(this, element);
      case 'img':
        return this.inlineFragment(imageMarkdown(element, this.baseUrl));
      case 'code':
        return writeCodeSpan(this, element);
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
        return writeCheckbox(this, element);
      case 'sub':
      case 'sup':
        if (!hasVisibleText(element)) return;
        return writeWrapped(this, element, name);
    }
    if (STRUCK.has(name)) return writeInline(this, element, 'del');
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

  /**
   * Puts a link on the first block written inside `anchor` (`target`: that block's element, or the
   * first node of its inline run), which `openBlock` and `closeBlock` open and close it around.
   */
  linkOnFirstBlock(anchor: PageElement, target: PageNode, destination: string): void {
    this.linkTarget = target;
    this.linkDestination = destination;
    this.children(anchor);
    this.linkTarget = null;
  }
}

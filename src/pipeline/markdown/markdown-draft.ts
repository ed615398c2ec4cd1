/**
 * Markdown written in JavaScript, carried through a native converter as placeholders.
 *
 * The native converter turns HTML into markdown in one call and cannot be taught rules; the parts
 * whose output this project defines itself (code blocks, tables, definition lists, math, images,
 * link destinations) are written here from the DOM and stand in the HTML as a placeholder of
 * private-use characters, which the converter copies through untouched. Content that needs
 * converting first (a table's cells, a definition's terms) goes along as extra documents of the
 * same call ("snippets"), so a page costs one native call whatever it holds.
 *
 * Contract: placeholders and markers are private-use characters (U+E000–U+E00F); a page's own
 * private-use characters in that range are dropped before conversion (`stripReserved`).
 */

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** Between the documents of one call: the page, then its snippets. */
const SEPARATOR = '\uE002';
/**
 * Marks where the page has no space before a link or strikethrough: the converter inserts one
 * there (a readability choice of mdream), the markdown keeps the page's spacing.
 */
export const NO_SPACE = '\uE003';
/** A task-list checkbox, checked and unchecked. */
export const CHECKED = '\uE004';
export const UNCHECKED = '\uE005';

const RESERVED = /[\uE000-\uE00F]/g;
const HAS_RESERVED = /[\uE000-\uE00F]/;

/** Converted snippets, for fragments that are built from converted content. */
export interface SnippetReader {
  /** The markdown of a snippet, placeholders already replaced. */
  markdown(index: number): string;
}

export type Fragment = string | ((snippets: SnippetReader) => string);

export class MarkdownDraft {
  private readonly fragments: Fragment[] = [];
  private readonly resolved: (string | undefined)[] = [];
  private readonly snippets: string[] = [];

  /** A placeholder for markdown; a multi-line fragment must stand alone in its block. */
  placeholder(fragment: Fragment): string {
    this.fragments.push(fragment);
    return `${OPEN}${(this.fragments.length - 1).toString(36)}${CLOSE}`;
  }

  /** Queues HTML to convert with the page; returns its index for `SnippetReader.markdown`. */
  snippet(html: string): number {
    this.snippets.push(html);
    return this.snippets.length - 1;
  }

  /** The HTML of one native call: the page, then every snippet. */
  documents(pageHtml: string): string {
    if (this.snippets.length === 0) return pageHtml;
    return [pageHtml, ...this.snippets].join(`<p>${SEPARATOR}</p>`);
  }

  /** The page's markdown from the converter's output for `documents()`: placeholders replaced by their fragments. */
  finish(converted: string): string {
    const parts = converted.split(SEPARATOR).map(trimNewlines);
    // A lost or extra separator would shift every snippet (table cells into the wrong table).
    if (parts.length !== this.snippets.length + 1) {
      throw new Error(`converter output has ${parts.length} documents, expected ${this.snippets.length + 1}`);
    }
    const snippetMarkdown: (string | undefined)[] = [];
    const reader: SnippetReader = {
      markdown: (index) => (snippetMarkdown[index] ??= this.substitute(parts[index + 1] ?? '', reader)),
    };
    return this.substitute(parts[0] ?? '', reader);
  }

  private fragment(index: number, reader: SnippetReader): string {
    let markdown = this.resolved[index];
    if (markdown === undefined) {
      const fragment = this.fragments[index] ?? '';
      markdown = this.substitute(typeof fragment === 'string' ? fragment : fragment(reader), reader);
      this.resolved[index] = markdown;
    }
    return markdown;
  }

  /** Replaces placeholders; lines after the first of a fragment take the continuation of its line's prefix. */
  private substitute(text: string, reader: SnippetReader): string {
    let open = text.indexOf(OPEN);
    if (open < 0) return text;
    const out: string[] = [];
    // The output's last line so far: searching the joined output for it would copy the whole
    // output for every multi-line fragment (a page's code blocks and tables).
    let line = '';
    const push = (part: string): void => {
      out.push(part);
      const newline = part.lastIndexOf('\n');
      line = newline < 0 ? line + part : part.slice(newline + 1);
    };
    let done = 0;
    while (open >= 0) {
      const close = text.indexOf(CLOSE, open);
      if (close < 0) break;
      push(text.slice(done, open));
      const markdown = this.fragment(Number.parseInt(text.slice(open + 1, close), 36), reader);
      push(markdown.includes('\n') ? indentFollowingLines(markdown, line) : markdown);
      done = close + 1;
      open = text.indexOf(OPEN, done);
    }
    out.push(text.slice(done));
    return out.join('');
  }
}

/** A multi-line fragment placed after `prefix` on its line: its other lines continue that prefix. */
function indentFollowingLines(markdown: string, prefix: string): string {
  const indent = continuationOf(prefix);
  return markdown.replace(/\n([^\n]?)/g, (_line, first: string) =>
    first ? `\n${indent}${first}` : `\n${indent.trimEnd()}`,
  );
}

/** A block's line prefix (`> `, indentation, a list marker) as the prefix of its following lines. */
function continuationOf(prefix: string): string {
  if (!/^[ >]*(?:(?:[-*+]|\d{1,9}[.)]) )?$/.test(prefix)) return '';
  return prefix.replace(/(?:[-*+]|\d{1,9}[.)]) $/, (marker) => ' '.repeat(marker.length));
}

/** Page text without the characters reserved for placeholders and markers. */
export function stripReserved(text: string): string {
  return HAS_RESERVED.test(text) ? text.replace(RESERVED, '') : text;
}

function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 10) start++;
  while (end > start && text.charCodeAt(end - 1) === 10) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

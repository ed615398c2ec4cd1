/**
 * Escaping of page text for markdown. turndown's default escapes every `_`, `[`, `]` and `-`,
 * which turns `snake_case` into `snake\_case` and citations into `\[1\]`; this one escapes only
 * what CommonMark/GFM would otherwise read as markup, so text stays readable.
 */

/** Anything that might need escaping; most text nodes have none and return at once. */
const MAY_NEED_ESCAPE = /[\\*_`[\]<&]|^(?:[-+=#>~]|\d+[.)])/;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE_CHAR = /\s/;

export function escapeMarkdownText(text: string): string {
  if (!MAY_NEED_ESCAPE.test(text)) return text;
  // Brackets only form links when followed by "(", "[" or ":"; citations like [1] stay as they are.
  const brackets = new Set<number>();
  for (const match of text.matchAll(/\[[^\]]*\](?=[([:])/g)) {
    brackets.add(match.index);
    brackets.add(match.index + match[0].length - 1);
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\') {
      // A backslash escapes only before ASCII punctuation; keep it literal there.
      out += ASCII_PUNCTUATION.test(text[i + 1] ?? '') ? '\\\\' : ch;
    } else if (ch === '`') {
      out += '\\`';
    } else if (ch === '*') {
      out += isSpaceAt(text, i - 1) && isSpaceAt(text, i + 1) ? ch : '\\*';
    } else if (ch === '_') {
      out += isWordAt(text, i - 1) && isWordAt(text, i + 1) ? ch : '\\_';
    } else if (ch === '[' || ch === ']') {
      out += brackets.has(i) ? `\\${ch}` : ch;
    } else if (ch === '<') {
      // Text that looks like a tag or an entity must not become one.
      out += TAG_START.test(text[i + 1] ?? '') ? '\\<' : ch;
    } else if (ch === '&') {
      out += ENTITY_REST.test(text.slice(i + 1, i + 34)) ? '\\&' : ch;
    } else {
      out += ch;
    }
  }
  return escapeLineStart(out);
}

export const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const TAG_START = /^[A-Za-z/!?]$/;
const ENTITY_REST = /^#?[A-Za-z0-9]+;/;

/**
 * Block markers only count at the start of a line. turndown hands over one text node at a time;
 * a node that starts a line has had its leading whitespace collapsed away, while a node in the
 * middle of a line (" - " between two links) keeps it, so only unindented text is escaped here.
 */
export function escapeLineStart(text: string): string {
  return text
    .replace(/^([-+])(?= )/, '\\$1')
    .replace(/^(#{1,6})(?= |$)/, '\\$1')
    .replace(/^>/, '\\>')
    .replace(/^(\d+)([.)])(?= |$)/, '$1\\$2')
    .replace(/^(=+|-+)$/, '\\$1')
    .replace(/^~~~/, '\\~~~');
}

function isSpaceAt(text: string, index: number): boolean {
  const ch = text[index];
  return ch !== undefined && SPACE_CHAR.test(ch);
}

function isWordAt(text: string, index: number): boolean {
  const ch = text[index];
  return ch !== undefined && WORD_CHAR.test(ch);
}

/** Escapes a table cell's pipes (GFM requires it even inside code spans). */
export function escapeTableCell(text: string): string {
  return text.replace(/(?<!\\)\|/g, '\\|');
}

/** A link or image destination: balanced parentheses are fine in CommonMark, others and spaces are encoded. */
export function formatDestination(url: string): string {
  let depth = 0;
  let balanced = true;
  for (const ch of url) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) balanced = false;
  }
  const safe = balanced && depth === 0 ? url : url.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return safe.replace(/ /g, '%20').replace(/</g, '%3C').replace(/>/g, '%3E');
}

/** Image alt text (raw attribute text): one line, with what could end the label escaped. */
export function formatAltText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\[\]])/g, '\\$1');
}

import { ASCII_PUNCTUATION } from './escape.js';
import { CHECKED, NO_SPACE, UNCHECKED } from './markdown-draft.js';

/**
 * The native converter's raw output brought to this project's markdown (before placeholders are
 * replaced, so only text the converter wrote is touched): the markers the HTML writer left are
 * applied, and escaping is reduced to what escape.ts escapes.
 *
 * mdream escapes every `\`, `*`, `_`, `~`, `[` of text, `]` inside link text and `>` inside quotes;
 * escape.ts escapes them only where CommonMark/GFM would read markup, so `snake_case`, `2 * 3`,
 * `[1]` and `~/path` stay as written. Backslashes in the raw output come only from that escaping
 * (the syntax it generates has none, code and URLs are placeholders), so each `\x` pair is
 * re-decided here with escape.ts's rules.
 */
export function polishConverterOutput(markdown: string): string {
  // The converter adds its space after the marker (the marker follows text, never a space).
  let text = markdown.includes(NO_SPACE) ? markdown.replace(/\uE003 ?/g, '') : markdown;
  text = minimiseEscapes(text);
  if (text.includes(CHECKED) || text.includes(UNCHECKED)) {
    text = text.replace(/\uE004 */g, '[x] ').replace(/\uE005 */g, '[ ] ');
  }
  // A heading with nothing in it (its content was an empty link or a skipped element), and a
  // line of `=` (a setext underline for the line above, which the converter does not escape).
  if (/#[ \t]*(?:\n|$)/.test(text)) text = text.replace(/^#{1,6}[ \t]*$/gm, '');
  return /=[ \t]*(?:\n|$)/.test(text) ? text.replace(/^([ >]*)(=+)[ \t]*$/gm, '$1\\$2') : text;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE_CHAR = /\s/;
/** What may precede a block marker on its line: quote markers, indentation, a list item's marker. */
const LINE_START = /^[ >]*(?:(?:[-*+]|\d{1,9}[.)]) )?$/;

function atLineStart(written: string): boolean {
  return LINE_START.test(written.slice(written.lastIndexOf('\n') + 1));
}

export function minimiseEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  /** Unescaped `]` that close an escaped `[..]` read as a link: they get escaped too (ascending). */
  const escapeClose: number[] = [];
  let i = 0;
  while (i < text.length) {
    const slash = text.indexOf('\\', i);
    const close = escapeClose[0] ?? -1;
    const stop = close >= 0 && (slash < 0 || close < slash) ? close : slash;
    if (stop < 0) break;
    out += text.slice(i, stop);
    if (stop === close) {
      escapeClose.shift();
      out += '\\]';
      i = stop + 1;
      continue;
    }
    const next = text[stop + 1];
    if (next === undefined) break;
    out += decideEscape(next, out, text, stop + 1, escapeClose);
    i = stop + 2;
  }
  return out + text.slice(i);
}

/** The escape for `ch`, escaped at `index` of `text`; `written`: the output so far. */
function decideEscape(ch: string, written: string, text: string, index: number, escapeClose: number[]): string {
  const before = written[written.length - 1] ?? '';
  const after = text[index + 1] ?? '';
  switch (ch) {
    case '\\':
      return ASCII_PUNCTUATION.test(after) ? '\\\\' : '\\';
    case '_':
      return WORD_CHAR.test(before) && WORD_CHAR.test(after) ? '_' : '\\_';
    case '*':
      // Between spaces a star is text, except where it would start a list item.
      return SPACE_CHAR.test(before) && SPACE_CHAR.test(after) && !atLineStart(written) ? '*' : '\\*';
    case '~':
      return atLineStart(written) && /^(?:\\?~){2}/.test(text.slice(index + 1, index + 5)) ? '\\~' : '~';
    case '>':
      return atLineStart(written) ? '\\>' : '>';
    case ']':
      if (escapeClose[0] === index) {
        escapeClose.shift();
        return '\\]';
      }
      return ']';
    case '[': {
      const close = linkLikeClose(text, index);
      if (close === null) return '[';
      if (close >= 0) escapeClose.push(close);
      return '\\[';
    }
    default:
      return `\\${ch}`;
  }
}

/**
 * For an escaped `[` at `open`: the index of the `]` closing it when `[..]` is followed by `(`, `[`
 * or `:` (it would read as a link: both stay escaped), -1 when its `]` ends a link the converter
 * wrote (the `[` must stay escaped, the `]` is syntax), null when it reads as plain text.
 */
function linkLikeClose(text: string, open: number): number | null {
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') return null;
    if (ch !== ']') continue;
    const escaped = text[i - 1] === '\\';
    // What follows may itself be escaped (`\[x]\[y]`).
    const next = (text[i + 1] === '\\' ? text[i + 2] : text[i + 1]) ?? '';
    if (!escaped && next === '(' && text[i + 2] === '\uE000') return -1;
    return next === '(' || next === '[' || next === ':' ? i : null;
  }
  return null;
}

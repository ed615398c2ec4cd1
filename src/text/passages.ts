/**
 * A piece of a document small enough to rank and to quote to a model. `text` is always
 * `document.slice(start, end)`, so passages put back in `index` order rebuild the document
 * (minus the blank lines between them).
 *
 * @example
 * const passages = splitPassages(markdown, { source: 'https://example.com/pricing' });
 * passages[2]; // { source, index: 2, start: 812, end: 1490, heading: 'Pricing › Teams', text: '…' }
 */
export interface Passage {
  /** Where the document came from (a URL, a file name); copied through for citations. */
  source: string;
  /** Position in the document, from 0. */
  index: number;
  /** Character offsets into the document. */
  start: number;
  end: number;
  /** The Markdown headings the passage sits under, outermost first, joined by ` › ` (null before the first). */
  heading: string | null;
  text: string;
}

export interface SplitOptions {
  source?: string;
  /** Passage size aimed at, in characters (default 1000, about 250 tokens). */
  maxChars?: number;
}

interface Span {
  start: number;
  end: number;
  heading: string | null;
}

interface Block {
  start: number;
  end: number;
  /** Heading level (1-6) when the block is an ATX heading. */
  level: number | null;
}

/**
 * Splits Markdown (or plain text) into passages: a heading starts a new passage, blank-line
 * separated blocks (paragraphs, lists, tables, fenced code kept whole) are grouped up to
 * `maxChars`, and a block longer than that is cut at sentence ends, then at spaces.
 * Only ATX headings (`## Title`) are recognised: what the content pipeline writes.
 */
export function splitPassages(document: string, options: SplitOptions = {}): Passage[] {
  const maxChars = Math.max(50, options.maxChars ?? 1000);
  const source = options.source ?? '';
  const passages: Passage[] = [];
  const headings: string[] = [];
  const emit = (span: Span) =>
    passages.push({ source, index: passages.length, ...span, text: document.slice(span.start, span.end) });
  let open: Span | null = null;
  for (const block of blocks(document)) {
    if (block.level !== null) {
      if (open) emit(open);
      open = null;
      headings.length = Math.min(headings.length, block.level - 1);
      headings[block.level - 1] = headingText(document.slice(block.start, block.end));
    }
    const heading = headings.filter(Boolean).join(' › ') || null;
    for (const piece of cutBlock(document, block, maxChars)) {
      if (open && piece.end - open.start > maxChars) {
        emit(open);
        open = null;
      }
      if (open) open.end = piece.end;
      else open = { start: piece.start, end: piece.end, heading };
    }
  }
  if (open) emit(open);
  return passages;
}

/** Blank-line separated blocks with their offsets; a fenced code block is one block, blank lines and all. */
function blocks(document: string): Block[] {
  const found: Block[] = [];
  const lines = /[^\n]*(?:\n|$)/g;
  let start = -1;
  let end = 0;
  let fence: string | null = null;
  const close = () => {
    if (start >= 0) found.push({ start, end, level: headingLevel(document.slice(start, end)) });
    start = -1;
  };
  for (const match of document.matchAll(lines)) {
    if (match[0] === '') break;
    const line = match[0].replace(/\r?\n$/, '');
    const lineStart = match.index;
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && line.trim() === '') {
      close();
      continue;
    }
    // A heading line is a block of its own even without blank lines around it.
    if (fence === null && headingLevel(line) !== null) close();
    if (start < 0) start = lineStart;
    end = lineStart + line.length;
    if (fenceMark && (fence === null || fenceMark.startsWith(fence))) fence = fence === null ? fenceMark : null;
    if (fence === null && headingLevel(line) !== null) close();
  }
  close();
  return found;
}

/** Pieces of a block no longer than `maxChars`: sentence ends first, then spaces, then a hard cut. */
function cutBlock(document: string, block: Block, maxChars: number): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  let start = block.start;
  while (block.end - start > maxChars) {
    const window = document.slice(start, start + maxChars);
    const cut = lastBreak(window, /[.!?。！？](?=\s)/g, 1) ?? lastBreak(window, /\s/g, 0) ?? maxChars;
    pieces.push({ start, end: start + cut });
    start += cut;
    while (start < block.end && /\s/.test(document[start]!)) start++;
  }
  if (start < block.end) pieces.push({ start, end: block.end });
  return pieces;
}

/** Offset just after the last match of `pattern` in the second half of `window` (cuts stay near full size). */
function lastBreak(window: string, pattern: RegExp, keep: number): number | null {
  let best: number | null = null;
  for (const match of window.matchAll(pattern)) {
    if (match.index >= window.length / 2) best = match.index + keep;
  }
  return best;
}

function headingLevel(text: string): number | null {
  const match = /^ {0,3}(#{1,6})(?:[ \t]|$)/.exec(text);
  return match ? match[1]!.length : null;
}

function headingText(line: string): string {
  return line
    .replace(/^ {0,3}#{1,6}[ \t]*/, '')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .trim();
}

/**
 * Turns positioned text runs (what a PDF really contains) into lines, paragraphs and headings.
 * PDFs have no paragraphs: they place strings at coordinates. The rules here are the usual
 * reading heuristics: a vertical jump, a change of font size, a short last line or a bullet ends a
 * paragraph; text noticeably larger than the body text is a heading.
 */

/** One text run on a page; `y` grows upwards (PDF coordinates). */
export interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  hasEOL: boolean;
}

export interface Line {
  text: string;
  x: number;
  y: number;
  right: number;
  fontSize: number;
  page: number;
}

export interface Block {
  kind: 'heading' | 'paragraph' | 'item';
  /** 1–6 for headings. */
  level?: number;
  text: string;
}

const BULLET = /^\s*([•◦▪▫●○■□‣⁃∙·–—*-])\s+/;
const NUMBERED = /^\s*(\d{1,3}[.)]|[a-z][.)])\s+\S/i;

/** Groups runs into lines: a line ends at an explicit line break or when the baseline moves. */
export function toLines(runs: TextRun[], page: number): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  let lastEnd = 0;
  const finish = () => {
    if (current && current.text.trim() !== '')
      lines.push({ ...current, text: current.text.replace(/\s+/g, ' ').trim() });
    current = null;
  };
  for (const run of runs) {
    const size = run.fontSize || 1;
    if (current && Math.abs(run.y - current.y) > size * 0.4) finish();
    if (run.str !== '') {
      if (!current) {
        current = { text: run.str, x: run.x, y: run.y, right: run.x + run.width, fontSize: run.fontSize, page };
      } else {
        const gap = run.x - lastEnd;
        const spaced = /\s$/.test(current.text) || /^\s/.test(run.str) || gap <= size * 0.15 ? '' : ' ';
        current.text += spaced + run.str;
        current.right = Math.max(current.right, run.x + run.width);
        current.fontSize = Math.max(current.fontSize, run.fontSize);
      }
      lastEnd = run.x + run.width;
    }
    if (run.hasEOL) finish();
  }
  finish();
  return lines;
}

/** The font size most of the text is set in (weighted by characters). */
export function bodyFontSize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.fontSize * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  let best = 12;
  let most = -1;
  for (const [size, chars] of weight) {
    if (chars > most) [best, most] = [size, chars];
  }
  return best;
}

/** Builds paragraphs, list items and headings from the lines of every page, in reading order. */
export function toBlocks(lines: Line[]): Block[] {
  const body = bodyFontSize(lines);
  // Lines reaching this far right are "full": the paragraph probably goes on.
  const fullRight = Math.max(...lines.map((l) => l.right)) * 0.85;
  const groups: Line[][] = [];
  for (const [index, line] of lines.entries()) {
    const previous = lines[index - 1];
    const group = groups.at(-1);
    if (!previous || !group || breaksBefore(previous, line, fullRight)) groups.push([line]);
    else group.push(line);
  }
  const headingSizes = [
    ...new Set(groups.filter((g) => isHeading(g, body)).map((g) => roundSize(g[0]!.fontSize))),
  ].sort((a, b) => b - a);
  return groups.map((group) => {
    const text = joinLines(group.map((l) => l.text));
    if (isHeading(group, body)) {
      return { kind: 'heading', level: Math.min(6, headingSizes.indexOf(roundSize(group[0]!.fontSize)) + 1), text };
    }
    if (BULLET.test(text) || NUMBERED.test(text)) return { kind: 'item', text: text.replace(BULLET, '') };
    return { kind: 'paragraph', text };
  });
}

function breaksBefore(previous: Line, line: Line, fullRight: number): boolean {
  const size = Math.max(previous.fontSize, line.fontSize);
  if (Math.abs(previous.fontSize - line.fontSize) > size * 0.1) return true;
  if (BULLET.test(line.text) || NUMBERED.test(line.text)) return true;
  if (previous.right < fullRight) return true;
  if (line.page !== previous.page) return !/^[a-z]/.test(line.text);
  const gap = previous.y - line.y;
  return gap > size * 1.5 || gap < 0;
}

function isHeading(group: Line[], body: number): boolean {
  const text = group.map((l) => l.text).join(' ');
  return group[0]!.fontSize >= body * 1.2 && group.length <= 3 && text.length <= 200;
}

function roundSize(size: number): number {
  return Math.round(size * 2) / 2;
}

/** Joins wrapped lines; a word hyphenated at a line end ("co-\noperative") is put back together. */
function joinLines(texts: string[]): string {
  let out = '';
  for (const text of texts) {
    if (out === '') out = text;
    else if (/[a-z]-$/.test(out) && /^[a-z]/.test(text)) out = out.slice(0, -1) + text;
    else out += ` ${text}`;
  }
  return out;
}

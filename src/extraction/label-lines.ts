/**
 * `Label: value` lines, the way pages and passages write facts in prose: "Price: $29", "**Salary:**
 * €60,000", "- Bedrooms: 3", "Ort：Berlin". A label is short (at most six words), has a letter,
 * is no URL and no clock time; the value is what follows, up to 300 characters.
 */

const LINE =
  /^\s*(?:[-*+•·▪►]\s+|\d{1,2}[.)]\s+)?(?:\*\*|__)?([^:：\n]{1,60}?)(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.*?)\s*$/;
const MAX_VALUE = 300;

/** The label and value of one line, or null when the line is not a `label: value` pair. */
export function labelPair(line: string): [string, string] | null {
  const match = LINE.exec(line);
  if (!match) return null;
  const label = (match[1] as string).replace(/[*_`]+/g, '').trim();
  const value = (match[2] as string).replace(/^[*_]+|[*_]+$/g, '').trim();
  if (!value || value.length > MAX_VALUE || !isLabel(label)) return null;
  if (/^\/\//.test(value)) return null;
  return [label, value];
}

function isLabel(label: string): boolean {
  if (!/\p{L}/u.test(label) || /\d$/.test(label)) return false;
  if (/^(?:https?|ftp|mailto|tel|javascript|data)$/i.test(label)) return false;
  if (/[.!?]\s/.test(label) || /[<>{}[\]=|]/.test(label)) return false;
  return label.split(/\s+/).length <= 6;
}

/** Every `label: value` pair in a block of text, line by line. */
export function labelPairs(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  // "Parking: free lot · Wheelchair accessible: yes" is two pairs on one line.
  for (const line of text.split(/\r?\n|\s+[·•|]\s+/)) {
    const pair = labelPair(line);
    if (pair) pairs.push(pair);
  }
  return pairs;
}

/** A line that only announces what follows ("Ingredients:", "## Ingredients", "**Features**"), its name; else null. */
export function headingLine(line: string): string | null {
  const trimmed = line.trim();
  const heading = /^#{1,6}\s+(.+?)\s*#*$/.exec(trimmed) ?? /^(?:\*\*|__)([^*_]{1,80})(?:\*\*|__):?$/.exec(trimmed);
  if (heading) return (heading[1] as string).replace(/[*_`:]+/g, '').trim() || null;
  const label = /^([^:：]{1,60})[:：]$/.exec(trimmed);
  return label && isLabel((label[1] as string).trim()) ? (label[1] as string).trim() : null;
}

/** The text of a bullet or numbered list line, else null. */
export function bulletLine(line: string): string | null {
  const match = /^\s*(?:[-*+•·▪►]|\d{1,3}[.)])\s+(.+?)\s*$/.exec(line);
  return match ? (match[1] as string).replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, '').trim() || null : null;
}

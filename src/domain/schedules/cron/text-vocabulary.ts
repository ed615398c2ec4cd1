/** Words and regex fragments the schedule-text parser reads; all lower case, after {@link normalizeText}. */

/** Day names and their EventBridge numbers (1 = Sunday). */
const DAY_WORDS: Record<string, number> = {
  sun: 1,
  sunday: 1,
  mon: 2,
  monday: 2,
  tue: 3,
  tues: 3,
  tuesday: 3,
  wed: 4,
  weds: 4,
  wednesday: 4,
  thu: 5,
  thur: 5,
  thurs: 5,
  thursday: 5,
  fri: 6,
  friday: 6,
  sat: 7,
  saturday: 7,
};

const MONTH_WORDS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const ORDINAL_WORDS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];
const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  fifteen: '15',
  twenty: '20',
  thirty: '30',
  'forty-five': '45',
  'forty five': '45',
  sixty: '60',
  ninety: '90',
};

const alternatives = (words: Iterable<string>) =>
  [...words].sort((a, b) => b.length - a.length || a.localeCompare(b)).join('|');

/** A day name, singular or plural (`monday`, `mondays`, `mon`). */
export const DAY = `(?:(?:${alternatives(Object.keys(DAY_WORDS))})s?)`;
export const MONTH = `(?:${alternatives(Object.keys(MONTH_WORDS))})`;
/** `1st`, `15th`, `first`, `twelfth`. */
export const ORDINAL = `(?:\\d{1,2}(?:st|nd|rd|th)|${ORDINAL_WORDS.join('|')})`;
/** A list separator: `,`, `and`, `, and`, `or`, `&`. */
export const AND = `(?:\\s*,\\s*and\\s+|\\s*,\\s*|\\s+and\\s+|\\s+or\\s+|\\s*&\\s*)`;
/** A range separator: `-`, `to`, `through`, `thru`, `until`, `till`. */
export const TO = `(?:\\s*-\\s*|\\s+(?:to|through|thru|until|till)\\s+)`;
/** `of the month`, `of every month`, `every month`, `monthly`: a day-of-month phrase's optional tail. */
export const OF_MONTH = `(?:\\s+(?:of|in)\\s+(?:the|every|each|a)\\s+month|\\s+(?:every|each|a)\\s+month|\\s+monthly)?`;

/** 1 (Sunday) … 7 (Saturday) for a day word, singular or plural; undefined for anything else. */
export function dayNumber(word: string): number | undefined {
  return DAY_WORDS[word] ?? (word.endsWith('s') ? DAY_WORDS[word.slice(0, -1)] : undefined);
}

export function monthNumber(word: string): number | undefined {
  return MONTH_WORDS[word];
}

/** 1-31 for `1st`, `15th`, `first`; undefined when the text is no ordinal this parser knows. */
export function ordinalNumber(text: string): number | undefined {
  const numeric = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(text);
  if (numeric) return Number(numeric[1]);
  const index = ORDINAL_WORDS.indexOf(text);
  return index < 0 ? undefined : index + 1;
}

/**
 * Lower case, one space between words, `a.m.` → `am`, `o'clock` dropped, number words as
 * digits, typographic dashes as `-`, and no trailing full stop; so the clause patterns stay
 * simple.
 */
export function normalizeText(text: string): string {
  let out = text
    .toLowerCase()
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/\b([ap])\.?\s?m\b\.?/g, '$1m')
    .replace(/\s*o['\u2019]?clock\b/g, '')
    .replace(/\b(\d{1,2})\.(\d{2})(?=\s|$|,|[ap]m)/g, '$1:$2')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '');
  // Longest first, so `forty-five` is read before `five`.
  for (const word of Object.keys(NUMBER_WORDS).sort((a, b) => b.length - a.length)) {
    const digits = NUMBER_WORDS[word]!;
    out = out.replace(new RegExp(`\\b${word}\\b`, 'g'), digits);
  }
  return out.replace(/^(?:please\s+)?(?:(?:run|runs|execute|trigger|fire|repeat)(?:\s+it)?\s+)/, '');
}

import { fieldError as invalid } from '../field-error.js';

/**
 * Line rules: `ignore_text`, `trigger_text` and `text_must_not_be_present` share one syntax, the
 * one changedetection.io uses. A rule is either plain text, matched case-insensitively as a
 * substring of a line, or `/pattern/flags`, a regular expression tested against each line
 * (case-insensitive unless flags are given; allowed flags `i` and `u`). Rules always look at
 * one normalised line at a time, never across lines.
 *
 * Patterns come from API clients and run on the server, so the ones that can take exponential
 * time on a crafted page are refused: a quantified group that itself contains a quantifier
 * (`(a+)+`, `(\w*)*`, `(x|y+){2,}`) and back-references. Length is capped at 500 characters.
 */

/** One compiled rule. `source` is the rule as given (trimmed). */
export interface TextRule {
  readonly source: string;
  readonly kind: 'text' | 'regex';
  test(line: string): boolean;
}

const MAX_RULE_LENGTH = 500;
const MAX_RULES = 100;
const SLASH_ENCLOSED = /^\/(.+)\/([a-z]*)$/s;

/**
 * Compiles a list of rules, or throws a 400 `validation_error` naming `field[index]`.
 *
 * @example
 * const rules = compileTextRules(['Sold out', '/^only \\d+ left/'], 'text_must_not_be_present');
 * rules.some((rule) => rule.test('SOLD OUT')); // true
 */
export function compileTextRules(input: unknown, field: string): TextRule[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw invalid(field, 'must be an array of strings');
  if (input.length > MAX_RULES) throw invalid(field, `has ${input.length} rules; at most ${MAX_RULES} are allowed`);
  const rules: TextRule[] = [];
  input.forEach((item: unknown, i) => {
    const name = `${field}[${i}]`;
    if (typeof item !== 'string') throw invalid(name, 'must be a string');
    const source = item.trim();
    if (source === '') throw invalid(name, 'is empty (an empty rule would match every line)');
    if (source.length > MAX_RULE_LENGTH) throw invalid(name, `is longer than ${MAX_RULE_LENGTH} characters`);
    rules.push(compileRule(source, name));
  });
  return rules;
}

function compileRule(source: string, field: string): TextRule {
  const slash = SLASH_ENCLOSED.exec(source);
  if (!slash) {
    const needle = source.toLowerCase();
    return { source, kind: 'text', test: (line) => line.toLowerCase().includes(needle) };
  }
  const pattern = slash[1] as string;
  const flags = slash[2] || 'i';
  const badFlag = [...flags].find((flag) => flag !== 'i' && flag !== 'u');
  if (badFlag) {
    throw invalid(
      field,
      `regular expression flag "${badFlag}" is not supported; use "i" or "u" (rules match one line at a time)`,
    );
  }
  const risk = catastrophicRisk(pattern);
  if (risk) throw invalid(field, `regular expression refused: ${risk}`);
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, [...new Set(flags)].join(''));
  } catch (err) {
    throw invalid(field, `is not a valid regular expression (${(err as Error).message})`);
  }
  return { source, kind: 'regex', test: (line) => regex.test(line) };
}

/** Indexes (0-based) of the lines any rule matches. */
export function matchingLineIndexes(lines: readonly string[], rules: readonly TextRule[]): number[] {
  if (rules.length === 0) return [];
  const found: number[] = [];
  lines.forEach((line, i) => {
    if (rules.some((rule) => rule.test(line))) found.push(i);
  });
  return found;
}

/** True when some rule matches some line. */
export function anyLineMatches(lines: readonly string[], rules: readonly TextRule[]): boolean {
  return rules.length > 0 && lines.some((line) => rules.some((rule) => rule.test(line)));
}

interface GroupState {
  quantified: boolean;
}

/**
 * Why `pattern` may backtrack exponentially, or null. A linear scan: tracks, for each open group,
 * whether it contains a quantifier; a group closed and then quantified while containing one is
 * nested quantification. Character classes and escapes are skipped.
 */
export function catastrophicRisk(pattern: string): string | null {
  const stack: GroupState[] = [{ quantified: false }];
  let closedQuantified = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    const top = stack[stack.length - 1] as GroupState;
    if (ch === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return 'back-references are not supported';
      i++;
      closedQuantified = false;
    } else if (ch === '[') {
      i = skipClass(pattern, i);
      closedQuantified = false;
    } else if (ch === '(') {
      stack.push({ quantified: false });
      i = skipGroupPrefix(pattern, i);
      closedQuantified = false;
    } else if (ch === ')') {
      const group = stack.length > 1 ? (stack.pop() as GroupState) : top;
      closedQuantified = group.quantified;
      if (group.quantified) (stack[stack.length - 1] as GroupState).quantified = true;
    } else if (isQuantifier(pattern, i)) {
      if (closedQuantified && isRepeating(pattern, i)) {
        return 'a repeated group contains another repetition (such as "(a+)+"), which can take exponential time';
      }
      top.quantified = true;
      closedQuantified = false;
    } else {
      closedQuantified = false;
    }
  }
  return null;
}

function skipClass(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > start + 1) return i;
  }
  return pattern.length;
}

/** `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` there is not a quantifier. */
function skipGroupPrefix(pattern: string, open: number): number {
  if (pattern[open + 1] !== '?') return open;
  const prefix = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(open + 1));
  return prefix ? open + prefix[0].length : open + 1;
}

function isQuantifier(pattern: string, i: number): boolean {
  const ch = pattern[i];
  if (ch === '*' || ch === '+' || ch === '?') return true;
  return ch === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i));
}

/** `?` and `{n}` / `{0,1}` repeat at most once: harmless on a quantified group. */
function isRepeating(pattern: string, i: number): boolean {
  const ch = pattern[i];
  if (ch === '*' || ch === '+') return true;
  if (ch !== '{') return false;
  const bound = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!bound) return false;
  if (bound[2] === undefined) return Number(bound[1]) > 1;
  return bound[3] === '' || Number(bound[3]) > 1;
}

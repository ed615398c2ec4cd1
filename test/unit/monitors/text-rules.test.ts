import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import {
  catastrophicRisk,
  compileTextRules,
  resolveDetectionOptions,
} from '../../../src/domain/monitors/detection/index.js';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('compileTextRules', () => {
  it.each([
    ['Sold out', 'SOLD OUT – back soon', true],
    ['Sold out', 'Sold', false],
    ['/^only \\d+ left/', 'Only 3 left', true],
    ['/^only \\d+ left/', 'Hurry: only 3 left', false],
    ['/price: \\$\\d+/', 'PRICE: $19', true],
    ['/Price/u', 'price', false],
    ['/Price/iu', 'price', true],
    ['/(?:in|out) of stock/', 'Out of stock', true],
    ['/(?<year>\\d{4})-\\d{2}/', '2024-05', true],
  ])('%s tested on %j is %s', (rule, line, expected) => {
    const [compiled] = compileTextRules([rule], 'rules');
    expect(compiled?.test(line)).toBe(expected);
  });

  it('tells plain text from regular expressions', () => {
    const rules = compileTextRules(['  Sold out ', '/a+b/'], 'trigger_text');
    expect(rules.map((r) => [r.source, r.kind])).toEqual([
      ['Sold out', 'text'],
      ['/a+b/', 'regex'],
    ]);
    expect(compileTextRules(undefined, 'x')).toEqual([]);
  });

  it.each([
    [[''], 'trigger_text[0]: is empty'],
    [[42], 'trigger_text[0]: must be a string'],
    ['Sold out', 'trigger_text: must be an array'],
    [['/a(/'], 'trigger_text[0]: is not a valid regular expression'],
    [['/a/g'], 'trigger_text[0]: regular expression flag "g" is not supported'],
    [['/(a+)+$/'], 'trigger_text[0]: regular expression refused: a repeated group'],
    [['/(\\w)\\1/'], 'back-references'],
    [['x'.repeat(501)], 'longer than 500'],
    [[...Array(101).keys()].map(String), 'at most 100'],
  ])('refuses %j', (input, message) => {
    const error = errorOf(() => compileTextRules(input, 'trigger_text'));
    expect(error.code).toBe('validation_error');
    expect(error.detail).toContain(message);
  });
});

describe('catastrophicRisk', () => {
  it.each(['(a+)+', '(\\w*)*b', '(x|y+){2,}', '((ab)*)+', '(?:a*)*', '(a+){3}'])('refuses %s', (pattern) => {
    expect(catastrophicRisk(pattern)).not.toBeNull();
  });
  it.each(['(a+)?', '(?:abc)+', '(a|b)+', '[(a+)]+', '\\(a+\\)+', '(a+){1}', '(?<name>a+)b', 'a+b*c?', '(a){2,5}'])(
    'accepts %s',
    (pattern) => {
      expect(catastrophicRisk(pattern)).toBeNull();
    },
  );
});

describe('resolveDetectionOptions', () => {
  it('fills in the defaults', () => {
    const options = resolveDetectionOptions(undefined);
    expect(options.include_selectors).toEqual([]);
    expect(options.include_links).toBe(false);
    expect(options.processors).toEqual({ price: true, restock: true });
    expect(options.noise_filters.timestamps).toBe(true);
    expect(options.noise_filters.dates).toBe(false);
  });

  it('changes the signature with anything that shapes comparison keys, not with rules', () => {
    const base = resolveDetectionOptions({}).signature;
    expect(resolveDetectionOptions({ noise_filters: { dates: true } }).signature).not.toBe(base);
    expect(resolveDetectionOptions({ ignore_text: ['x'] }).signature).not.toBe(base);
    expect(resolveDetectionOptions({ include_links: true }).signature).not.toBe(base);
    expect(resolveDetectionOptions({ ignore_selectors: ['.x'] }).signature).not.toBe(base);
    expect(resolveDetectionOptions({ trigger_text: ['x'] }).signature).toBe(base);
    expect(resolveDetectionOptions({ noise_filters: { timestamps: true } }).signature).toBe(base);
  });

  it.each([
    [{ noise_filter: {} }, 'detection.noise_filter: is not a detection setting'],
    [{ noise_filters: { datez: true } }, 'detection.noise_filters.datez: unknown noise filter'],
    [{ noise_filters: { dates: 'yes' } }, 'detection.noise_filters.dates: must be true or false'],
    [{ include_selectors: ['div['] }, 'detection.include_selectors[0]: "div[" is not a valid CSS selector'],
    [{ ignore_selectors: '.ads' }, 'detection.ignore_selectors: must be an array'],
    [{ processors: { stock: true } }, 'detection.processors.stock: is not a processor'],
    [{ ignore_text: ['/(a+)+/'] }, 'detection.ignore_text[0]'],
    [[], 'detection: must be an object'],
  ])('refuses %j', (input, message) => {
    const error = errorOf(() => resolveDetectionOptions(input));
    expect(error.status).toBe(400);
    expect(error.detail).toContain(message);
  });
});

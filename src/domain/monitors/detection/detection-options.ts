import { fieldError as invalid } from '../field-error.js';
import { cssSelectorProblem } from '../../../pipeline/remove-selectors.js';
import { defaultNoiseFilters, NOISE_FILTER_IDS, type NoiseFilterId } from './noise-filters.js';
import type { ProcessorOptions } from './product/product-state.js';
import { compileTextRules, type TextRule } from './text-rules.js';

/**
 * A monitor's change-detection settings, as a client sends them (`DetectionOptionsInput`)
 * and resolved (`DetectionOptions`): validated once, defaults filled in, rules compiled.
 */

/**
 * @example
 * const input: DetectionOptionsInput = {
 *   include_selectors: ['#product'],
 *   ignore_text: ['/^Delivery by /'],
 *   text_must_not_be_present: ['Sold out'],
 *   noise_filters: { dates: true },
 * };
 */
export interface DetectionOptionsInput {
  /** Watch only these parts of the page (CSS selectors). Default: the whole page. */
  include_selectors?: string[];
  /** Remove these parts before comparing (CSS selectors). */
  ignore_selectors?: string[];
  /** Write each link's target after its text (`Download <https://…/v2.zip>`), so a changed link counts. Default false. */
  include_links?: boolean;
  /** Turn noise filters on or off by id; unnamed filters keep their default. */
  noise_filters?: Partial<Record<NoiseFilterId, boolean>>;
  /** Lines matching a rule are left out of the comparison. */
  ignore_text?: string[];
  /** A change counts only while some line matches a rule. */
  trigger_text?: string[];
  /** No change counts while some line matches a rule ("Sold out": told when it goes). */
  text_must_not_be_present?: string[];
  /** The price and restock processors (both default true). */
  processors?: Partial<ProcessorOptions>;
}

export interface DetectionOptions {
  include_selectors: string[];
  ignore_selectors: string[];
  include_links: boolean;
  noise_filters: Record<NoiseFilterId, boolean>;
  ignore_text: TextRule[];
  trigger_text: TextRule[];
  text_must_not_be_present: TextRule[];
  processors: ProcessorOptions;
  /**
   * Everything that shapes a snapshot's comparison keys, as one string: part of the snapshot
   * fingerprint, so fingerprints only compare equal under the same settings.
   */
  signature: string;
}

const KEYS = new Set([
  'include_selectors',
  'ignore_selectors',
  'include_links',
  'noise_filters',
  'ignore_text',
  'trigger_text',
  'text_must_not_be_present',
  'processors',
]);

/**
 * Validates and completes detection settings; throws a 400 `validation_error` naming the field
 * (`detection.noise_filters.datez: unknown filter…`) on anything it cannot use.
 *
 * @example
 * const options = resolveDetectionOptions({ noise_filters: { counters: false } });
 * options.noise_filters.timestamps; // true (default)
 */
export function resolveDetectionOptions(input: unknown = {}, field = 'detection'): DetectionOptions {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid(field, 'must be an object');
  const raw = input as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => !KEYS.has(key));
  if (unknownKey)
    throw invalid(`${field}.${unknownKey}`, `is not a detection setting (known: ${[...KEYS].join(', ')})`);
  const options = {
    include_selectors: selectors(raw.include_selectors, `${field}.include_selectors`),
    ignore_selectors: selectors(raw.ignore_selectors, `${field}.ignore_selectors`),
    include_links: flag(raw.include_links, `${field}.include_links`, false),
    noise_filters: noiseFilters(raw.noise_filters, `${field}.noise_filters`),
    ignore_text: compileTextRules(raw.ignore_text, `${field}.ignore_text`),
    trigger_text: compileTextRules(raw.trigger_text, `${field}.trigger_text`),
    text_must_not_be_present: compileTextRules(raw.text_must_not_be_present, `${field}.text_must_not_be_present`),
    processors: processors(raw.processors, `${field}.processors`),
  };
  const signature = JSON.stringify([
    1,
    options.include_selectors,
    options.ignore_selectors,
    options.include_links,
    NOISE_FILTER_IDS.filter((id) => options.noise_filters[id]),
    options.ignore_text.map((rule) => rule.source),
  ]);
  return { ...options, signature };
}

function selectors(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(field, 'must be an array of CSS selectors');
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}]`, 'must be a string');
    const problem = cssSelectorProblem(item);
    if (problem) throw invalid(`${field}[${i}]`, `${JSON.stringify(item)} is not a valid CSS selector: ${problem}`);
    return item.trim();
  });
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
  return value;
}

function noiseFilters(value: unknown, field: string): Record<NoiseFilterId, boolean> {
  const enabled = defaultNoiseFilters();
  if (value === undefined || value === null) return enabled;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid(field, 'must be an object of filter ids to booleans');
  for (const [id, on] of Object.entries(value)) {
    if (!(NOISE_FILTER_IDS as readonly string[]).includes(id)) {
      throw invalid(`${field}.${id}`, `unknown noise filter (known: ${NOISE_FILTER_IDS.join(', ')})`);
    }
    enabled[id as NoiseFilterId] = flag(on, `${field}.${id}`, enabled[id as NoiseFilterId]);
  }
  return enabled;
}

function processors(value: unknown, field: string): ProcessorOptions {
  if (value === undefined || value === null) return { price: true, restock: true };
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'must be an object');
  const raw = value as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => key !== 'price' && key !== 'restock');
  if (unknownKey) throw invalid(`${field}.${unknownKey}`, 'is not a processor (known: price, restock)');
  return { price: flag(raw.price, `${field}.price`, true), restock: flag(raw.restock, `${field}.restock`, true) };
}

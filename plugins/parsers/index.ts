import type { Parser } from '../../src/parsers/parser.js';

/**
 * Parsers this build ships. None yet: structured extraction arrives with its own issue
 * (llm_extract, answers). Adding one = a file in this folder and one line here.
 */
export const builtinParsers: Parser[] = [];

import { AppError } from '../errors.js';

/**
 * A parser plugin turns a fetched page into structured data, returned as `json_content`
 * (a JSON string) when a scrape asks for `parser: {id}`. Parsers live in `plugins/parsers/`
 * and register by id; an unknown id answers 404 `parser_not_found`.
 *
 * `parse` is a pure, synchronous function of plain data (no I/O, no clock, no shared state), so
 * it can run on a conversion thread: its input and output cross `postMessage` unchanged. A page
 * it cannot read (a PDF for an HTML-only parser) throws `ParserInputError` (422
 * `invalid_parser_input`); options it does not know are ignored.
 *
 * @example
 * export const titleParser = defineParser({
 *   id: 'title',
 *   description: 'The page title',
 *   outputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
 *   parse: ({ metadata }) => ({ title: String(metadata.title ?? '') }),
 * });
 */
export interface Parser {
  readonly id: string;
  readonly description: string;
  /** JSON Schema (draft 2020-12) of what `parse` returns; `GET /v1/parsers` shows it. */
  readonly outputSchema: Readonly<Record<string, unknown>>;
  parse(page: ParserInput, options: Record<string, unknown>): unknown;
}

/**
 * Declares a parser: one folder under `plugins/parsers/` and one line in its `index.ts`. Parsers
 * take no settings and make nothing (they are pure, and run on conversion threads), so the
 * declaration is the parser itself. `GET /v1/parsers` lists them.
 *
 * @example
 * export const titleParser = defineParser({ id: 'title', description: 'The page title', outputSchema, parse });
 */
export function defineParser(parser: Parser): Parser {
  return parser;
}

/** The parsers of `plugins/parsers/index.ts` (`export { xParser } from …` lines), checked and by id. */
export function listParsers(list: Record<string, Parser>): Parser[] {
  const parsers = Object.values(list);
  for (const parser of parsers) {
    if (typeof parser?.id !== 'string' || typeof parser.parse !== 'function') {
      throw new Error('plugins/parsers/index.ts exports something that is not a parser (defineParser)');
    }
  }
  return parsers.sort((a, b) => a.id.localeCompare(b.id));
}

export interface ParserInput {
  url: string;
  /** The page's decoded text (HTML for HTML pages); `''` when the page has none (a PDF). */
  text: string;
  /** MIME type without parameters, lower case; `''` when unknown. */
  contentType: string;
  /** page_metadata as produced by the pipeline (title, description, Open Graph fields...). */
  metadata: Record<string, unknown>;
}

/**
 * The page is not one this parser can read: 422 `invalid_parser_input`. Survives a conversion
 * thread's boundary like every AppError (kind, code and detail are posted back).
 *
 * @example
 * throw new ParserInputError('tables', 'application/pdf is not an HTML page');
 */
export class ParserInputError extends AppError {
  constructor(parserId: string, problem: string) {
    super(
      'unprocessable',
      'invalid_parser_input',
      `parser ${JSON.stringify(parserId)} cannot read this page: ${problem}`,
      {
        metadata: { parser: parserId },
      },
    );
    this.name = 'ParserInputError';
  }
}

export interface ParserRegistry {
  register(parser: Parser): void;
  /** The parser, or throws 404 `parser_not_found`. */
  require(id: string): Parser;
  list(): Parser[];
}

export function createParserRegistry(parsers: readonly Parser[] = []): ParserRegistry {
  const byId = new Map<string, Parser>();
  const registry: ParserRegistry = {
    register(parser) {
      if (byId.has(parser.id)) throw new Error(`parser "${parser.id}" is already registered`);
      byId.set(parser.id, parser);
    },
    require(id) {
      const parser = byId.get(id);
      if (!parser) {
        const known = [...byId.keys()].join(', ') || 'none';
        throw new AppError(
          'not_found',
          'parser_not_found',
          `parser ${JSON.stringify(id)} does not exist (available: ${known})`,
        );
      }
      return parser;
    },
    list: () => [...byId.values()],
  };
  for (const parser of parsers) registry.register(parser);
  return registry;
}

import { AppError } from '../errors.js';

/**
 * A parser plugin turns a fetched page into structured data, returned as `json_content`
 * (a JSON string) when a scrape asks for `parser: {id}`. Parsers live in `plugins/parsers/`
 * and register by id; an unknown id answers 404 `parser_not_found`.
 *
 * @example
 * export const titleParser: Parser = {
 *   id: 'title',
 *   description: 'The page title',
 *   parse: ({ metadata }) => ({ title: metadata.title }),
 * };
 */
export interface Parser {
  readonly id: string;
  readonly description: string;
  parse(page: ParserInput, options: Record<string, unknown>): unknown;
}

export interface ParserInput {
  url: string;
  /** The page's decoded text (HTML for HTML pages). */
  text: string;
  contentType: string;
  /** page_metadata as produced by the pipeline (title, description, Open Graph fields...). */
  metadata: Record<string, unknown>;
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

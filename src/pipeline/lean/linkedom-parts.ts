import { createRequire } from 'node:module';

/**
 * The HTML parser and selector engine linkedom itself runs on (its own dependencies, whatever
 * versions the project's other packages pull in): the lean tree must be built by the same
 * tokenizer with the same quirks, and answer selectors the way linkedom's `querySelectorAll` does,
 * for both parses to give the same results. Resolved from linkedom's package, so an upgrade of
 * linkedom moves both parses together (the differential tests then say whether they still agree).
 */

/** htmlparser2's callbacks as linkedom uses them (parse-from-string.js). */
export interface ParserHandler {
  onprocessinginstruction(name: string, data: string): void;
  onopentag(name: string, attributes: Record<string, string>): void;
  onclosetag(name: string): void;
  ontext(data: string): void;
  oncomment(data: string): void;
  oncdatastart(): void;
  oncdataend(): void;
}

export interface HtmlParser {
  write(chunk: string): void;
  end(): void;
}

interface Htmlparser2 {
  Parser: new (
    handler: ParserHandler,
    options: { lowerCaseAttributeNames: boolean; decodeEntities: boolean; xmlMode: boolean },
  ) => HtmlParser;
}

/** A compiled selector: whether an element matches. */
export type CompiledSelector<E> = (element: E) => boolean;

interface CssSelect {
  compile<E>(selector: string, options: { xmlMode: boolean; adapter: unknown }): CompiledSelector<E>;
}

const fromLinkedom = createRequire(createRequire(import.meta.url).resolve('linkedom/package.json'));

export const htmlparser2 = fromLinkedom('htmlparser2') as Htmlparser2;
export const cssSelect = fromLinkedom('css-select') as CssSelect;

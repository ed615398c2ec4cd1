import { AppError } from '../errors.js';

/** What a transformer receives: the cleaned page. */
export interface TransformContext {
  document: Document;
  /** The cleaned page's content root (`<body>`, or `<html>` for pages with content outside it). */
  root: Element;
  /** Base URL of the page. */
  baseUrl: URL;
}

export interface TransformResult {
  /** The element holding the main content; its children are what the formats are made of. */
  root: Element;
  /** The content's title when the transformer found one; added as a heading when the content has none. */
  title?: string;
}

/**
 * A main-content extractor run between cleanup and conversion, chosen by the request's
 * `transformer` field. It may rearrange or detach nodes of the document it is given (the pipeline
 * has already read metadata and links). Returning null keeps the whole cleaned page.
 *
 * Adding one = a folder under `plugins/transformers/` exporting it, plus one line in
 * `plugins/transformers/index.ts`.
 *
 * @example
 * export const firstArticleTransformer: ContentTransformer = {
 *   id: 'first-article',
 *   transform: ({ document }) => {
 *     const article = document.querySelector('article');
 *     return article ? { root: article } : null;
 *   },
 * };
 */
export interface ContentTransformer {
  /** Lower-case id clients send as `transformer`. `none` is reserved (no transformation). */
  readonly id: string;
  /** Other ids that select it (`postlight` for `readability`). */
  readonly aliases?: readonly string[];
  transform(context: TransformContext): TransformResult | null;
}

export interface TransformerRegistry {
  /** The transformer for an id or alias (case-insensitive); undefined when unknown. */
  get(id: string): ContentTransformer | undefined;
  /** Every accepted id and alias, `none` first. */
  ids(): string[];
  /** Adds one; throws when its id or an alias is taken. */
  register(transformer: ContentTransformer): void;
}

/** The id that means "no transformation"; no plugin may take it. */
export const NO_TRANSFORMER = 'none';

/**
 * @example
 * const transformers = createTransformerRegistry([readabilityTransformer]);
 * transformers.get('postlight'); // the readability transformer
 */
export function createTransformerRegistry(initial: readonly ContentTransformer[] = []): TransformerRegistry {
  const byId = new Map<string, ContentTransformer>();
  const register = (transformer: ContentTransformer): void => {
    for (const name of [transformer.id, ...(transformer.aliases ?? [])]) {
      const key = name.toLowerCase();
      if (key === NO_TRANSFORMER) throw new Error(`transformer id "${NO_TRANSFORMER}" is reserved`);
      if (byId.has(key)) throw new Error(`transformer "${key}" is already registered`);
    }
    for (const name of [transformer.id, ...(transformer.aliases ?? [])]) byId.set(name.toLowerCase(), transformer);
  };
  initial.forEach(register);
  return {
    get: (id) => byId.get(id.toLowerCase()),
    ids: () => [NO_TRANSFORMER, ...byId.keys()],
    register,
  };
}

/** Resolves the request's `transformer` field: null for `none`/absent, a 400 naming the choices when unknown. */
export function resolveTransformer(
  registry: TransformerRegistry,
  id: string | null | undefined,
  field = 'transformer',
): ContentTransformer | null {
  if (id === undefined || id === null || id.trim().toLowerCase() === NO_TRANSFORMER) return null;
  const transformer = registry.get(id.trim());
  if (transformer) return transformer;
  throw new AppError(
    'validation',
    'validation_error',
    `${field}: unknown transformer ${JSON.stringify(id)}; use one of ${registry.ids().join(', ')}`,
    { metadata: { field } },
  );
}

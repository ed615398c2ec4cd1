/** The content pipeline's public surface, for the scrape service and the composition root. */
export { createContentPipeline } from './content-pipeline.js';
export type { ContentPipeline, ContentPipelineDeps } from './content-pipeline.js';
export type { PreparedContentOptions } from './options.js';
export { DEFAULT_REMOVE_SELECTORS, normaliseRemoveCssSelectors, cssSelectorProblem } from './remove-selectors.js';
export { createTransformerRegistry, resolveTransformer, NO_TRANSFORMER } from './transformer.js';
export type { ContentTransformer, TransformContext, TransformResult, TransformerRegistry } from './transformer.js';
export type { MarkdownConverter, ConvertContext } from './markdown-converter.js';
export { createTurndownConverter } from './markdown/turndown-converter.js';
export { createMdreamConverter } from './markdown/mdream-converter.js';
export type { MdreamConverterOptions } from './markdown/mdream-converter.js';
export { loadMdream } from './markdown/mdream-binding.js';
export type { MdreamBinding, MdreamLoad } from './markdown/mdream-binding.js';
export { defaultMarkdownConverter } from './markdown/default-converter.js';
export type { DefaultMarkdownConverter } from './markdown/default-converter.js';
export type { ContentStage, PageContext } from './stages.js';
export { CONTENT_FORMATS } from './types.js';
export type {
  ContentFormat,
  ContentInput,
  ContentKind,
  ContentOptions,
  ContentResult,
  LinksOnPageOptions,
  PageMetadata,
  RemoveCssSelectorsInput,
  StageTimings,
} from './types.js';

import { Readability } from '@mozilla/readability';
import type { ContentTransformer } from '../../../src/pipeline/transformer.js';

/**
 * Main-content extraction with Mozilla Readability (Firefox Reader View), run on the pipeline's
 * linkedom document. `postlight` is an alias: the Postlight parser the original API named is
 * unmaintained, and clients sending either id get article extraction.
 *
 * Classes are kept so the converter still sees code languages (`language-x`); JSON-LD is skipped
 * because the metadata stage already read it. When Readability finds no article (short pages,
 * listings) the pipeline keeps the whole cleaned page.
 */
export const readabilityTransformer: ContentTransformer = {
  id: 'readability',
  aliases: ['postlight'],
  transform({ document }) {
    const article = new Readability<Node>(document, {
      keepClasses: true,
      disableJSONLD: true,
      serializer: (node) => node,
    }).parse();
    const content = article?.content;
    if (!content || content.nodeType !== 1) return null;
    const title = article.title?.trim();
    return title ? { root: content as Element, title } : { root: content as Element };
  },
};

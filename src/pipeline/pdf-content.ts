import { extractPdfText, PdfTextError } from '../pdf/pdf-text.js';
import type { ContentOptions, ContentResult } from './types.js';

/** Pages of a PDF target read at most: extraction is CPU work on the thread running the scrape. */
export const PDF_MAX_PAGES = 300;

/** `PageSnapshot.contentType` is already a bare lower-case MIME type. */
export const isPdf = (contentType: string): boolean => contentType === 'application/pdf';

/** Formats of a PDF target, and what the response should say about it. */
export interface PdfContent {
  result: ContentResult;
  warnings: string[];
}

/**
 * Turns the bytes of a PDF target into the formats a scrape asked for: markdown (headings,
 * paragraphs, lists rebuilt from the text's positions), text and simple HTML, with the
 * document's title in page_metadata. An unreadable PDF (damaged, encrypted) still makes a
 * page: empty formats and a warning saying why, as a target answering with an empty body does.
 *
 * @example
 * const { result, warnings } = await pdfContent(snapshot.body, { formats: ['markdown'] });
 */
export async function pdfContent(
  bytes: Uint8Array,
  options: Pick<ContentOptions, 'formats' | 'linksOnPage'>,
): Promise<PdfContent> {
  const started = performance.now();
  const warnings: string[] = [];
  let extracted: Awaited<ReturnType<typeof extractPdfText>> | null = null;
  try {
    extracted = await extractPdfText(bytes, { maxPages: PDF_MAX_PAGES });
  } catch (err) {
    if (!(err instanceof PdfTextError)) throw err;
    warnings.push(`no text was extracted: ${err.message}`);
  }
  if (extracted?.truncated) {
    warnings.push(`only the first ${PDF_MAX_PAGES} of the PDF's ${extracted.pages} pages were read`);
  }
  if (extracted && extracted.text.trim() === '' && extracted.pages > 0) {
    warnings.push('the PDF has no text layer (scanned pages?); no text was extracted');
  }
  const wanted = new Set(options.formats);
  const result: ContentResult = {
    kind: 'pdf',
    metadata: { title: extracted?.title ?? '' },
    timings: { pdf: performance.now() - started },
  };
  if (wanted.has('markdown')) result.markdown = extracted?.markdown ?? '';
  if (wanted.has('text')) result.text = extracted?.text ?? '';
  if (wanted.has('html')) result.html = extracted?.html ?? '';
  // pdf.js reads no link annotations here: a PDF lists no links (rather than guessed ones).
  if (options.linksOnPage) result.links = [];
  return { result, warnings };
}

import { z } from 'zod';
import type { PageView } from './page-views.js';
import { HOSTED_URL_FIELD } from './page-content.js';

/** page_metadata: at least status_code and title (spec); the rest per decisions.md. */
export const PageMetadataObject = z
  .looseObject({
    status_code: z.number().int(),
    title: z.string(),
    description: z.string().optional(),
    language: z.string().optional(),
    canonical_url: z.string().optional(),
    final_url: z.string().optional(),
    content_type: z.string().optional(),
    engine: z.string().optional().describe('The engine that fetched the page (`http`, `playwright`).'),
    og_title: z.string().optional(),
    og_description: z.string().optional(),
    og_image: z.string().optional(),
  })
  .meta({ id: 'PageMetadata' });

const content = z.string().nullable().optional();
const hosted = z.string().nullable().optional();

/** The formats of a page, inline and hosted (shared by scrape results and retrieve). */
export const PageContentFields = {
  html_content: content,
  markdown_content: content,
  text_content: content,
  json_content: content.describe('Parser output as a JSON string.'),
  html_hosted_url: hosted,
  markdown_hosted_url: hosted,
  text_hosted_url: hosted,
  json_hosted_url: hosted,
};

/** `<format>_content` and `<format>_hosted_url` fields of a page view. */
export function presentContent(view: PageView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [format, text] of Object.entries(view.inline)) out[`${format}_content`] = text;
  for (const [format, url] of Object.entries(view.hosted)) {
    out[HOSTED_URL_FIELD[format as keyof typeof HOSTED_URL_FIELD]] = url;
  }
  return out;
}

export const RetrieveObject = z
  .looseObject({
    retrieve_id: z.string(),
    url: z.string(),
    ...PageContentFields,
    screenshot_hosted_url: hosted.describe(
      'The screenshot (PNG), when the page was scraped with one and `formats` was omitted.',
    ),
    pdf_hosted_url: hosted.describe(
      'The PDF (`raw_pdf`), when the page was scraped with one and `formats` was omitted.',
    ),
    size_exceeded: z.boolean().describe('True when a format is over 6 MB: use its hosted URL.'),
  })
  .meta({ id: 'PageContent' });

export function presentRetrieve(view: PageView): z.output<typeof RetrieveObject> {
  return { retrieve_id: view.page.id, url: view.page.url, ...presentContent(view), size_exceeded: view.sizeExceeded };
}

import { isPlainObject, type LinkedNode, readJsonLd, textOf, typesOf } from '../../../src/extraction/index.js';
import { forEachNode } from '../support/linked-values.js';
import { collapseWhitespace, resolveUrl } from '../../../src/pipeline/dom.js';
import { requireHtml } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';
import { type ImageEntry, ImageList, srcsetCandidates } from './image-list.js';

const LAZY_SOURCES = ['src', 'data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url'];

/**
 * `@olostep/extract-images`: the page's images with absolute URLs, each once: Open Graph and
 * Twitter card images, `<link rel="image_src">`, JSON-LD images, `<img>` (lazy-loading `data-src`
 * attributes included) with their `srcset` and `<picture>` sources, video posters, and inline
 * `background-image` styles. An image found twice keeps its first place and gains what the later
 * sighting adds (alt text, size). `data:` URIs and 1×1 tracking pixels are left out. HTML only.
 *
 * @example
 * // { "images": [{ "url": "https://ex.com/a.jpg", "alt": "A", "width": 800, "height": 600,
 * //               "source": "img", "srcset": [{ "url": "https://ex.com/a-2x.jpg", "descriptor": "2x" }] }] }
 */
export const extractImagesParser = defineParser({
  id: '@olostep/extract-images',
  description:
    'Images on the page with absolute URLs, alt text and size: <img>/srcset/<picture>, og:image, twitter:image, JSON-LD images, video posters, CSS background images.',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      images: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            url: { type: 'string', format: 'uri', description: 'Absolute URL of the image.' },
            alt: { type: ['string', 'null'], description: 'Alt text or caption, null when none.' },
            width: { type: ['integer', 'null'], description: 'Declared width in pixels, null when not declared.' },
            height: { type: ['integer', 'null'], description: 'Declared height in pixels, null when not declared.' },
            source: {
              type: 'string',
              enum: ['og:image', 'twitter:image', 'link', 'json-ld', 'img', 'picture', 'video-poster', 'style'],
              description: 'Where the page names it (the first place it was found).',
            },
            srcset: {
              type: 'array',
              description: 'Other sizes the page offers for it (srcset and <picture> sources).',
              items: {
                type: 'object',
                properties: { url: { type: 'string', format: 'uri' }, descriptor: { type: ['string', 'null'] } },
                required: ['url', 'descriptor'],
              },
            },
          },
          required: ['url', 'alt', 'width', 'height', 'source', 'srcset'],
        },
      },
    },
    required: ['images'],
    additionalProperties: false,
  },
  parse(input) {
    const { document, baseUrl } = requireHtml(input, '@olostep/extract-images');
    const list = new ImageList(baseUrl);
    readMetaImages(document, list);
    readJsonLdImages(readJsonLd(document).items, list);
    readElements(document, baseUrl, list);
    return { images: list.entries() };
  },
});

function meta(document: Document, name: string): string | null {
  return (
    document.querySelector(`meta[property="${name}"], meta[name="${name}"]`)?.getAttribute('content')?.trim() || null
  );
}

function readMetaImages(document: Document, list: ImageList): void {
  const og = meta(document, 'og:image') ?? meta(document, 'og:image:url') ?? meta(document, 'og:image:secure_url');
  list.add(og, {
    source: 'og:image',
    alt: meta(document, 'og:image:alt'),
    width: meta(document, 'og:image:width'),
    height: meta(document, 'og:image:height'),
  });
  list.add(meta(document, 'twitter:image') ?? meta(document, 'twitter:image:src'), {
    source: 'twitter:image',
    alt: meta(document, 'twitter:image:alt'),
  });
  list.add(document.querySelector('link[rel~="image_src"]')?.getAttribute('href') ?? null, { source: 'link' });
}

/** `image`, `logo`, `thumbnailUrl` and `photo` of every node (URLs or ImageObjects), and every ImageObject. */
function readJsonLdImages(items: LinkedNode[], list: ImageList): void {
  forEachNode(items, (node) => {
    for (const key of ['image', 'logo', 'thumbnailUrl', 'photo', 'thumbnail']) addLinkedImage(node[key], list);
    if (typesOf(node).includes('ImageObject')) addLinkedImage(node, list);
  });
}

function addLinkedImage(value: unknown, list: ImageList): void {
  if (Array.isArray(value)) return value.forEach((item) => addLinkedImage(item, list));
  if (typeof value === 'string') return void list.add(value, { source: 'json-ld' });
  if (!isPlainObject(value)) return;
  const url = textOf(value.contentUrl ?? value.url, true);
  list.add(url, {
    source: 'json-ld',
    alt: textOf(value.caption ?? value.name ?? value.description),
    width: textOf(value.width),
    height: textOf(value.height),
  });
}

function readElements(document: Document, baseUrl: URL, list: ImageList): void {
  for (const element of document.querySelectorAll('img, video[poster], [style*="url("]')) {
    if (element.nodeName === 'IMG') readImg(element, baseUrl, list);
    else if (element.nodeName === 'VIDEO') list.add(element.getAttribute('poster'), { source: 'video-poster' });
    for (const match of (element.getAttribute('style') ?? '').matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)) {
      list.add(match[2] as string, { source: 'style' });
    }
  }
}

function readImg(img: Element, baseUrl: URL, list: ImageList): void {
  const picture = img.parentElement?.nodeName === 'PICTURE' ? img.parentElement : null;
  const srcset = [
    ...srcsetCandidates(img.getAttribute('srcset') ?? img.getAttribute('data-srcset'), baseUrl),
    ...Array.from(picture?.querySelectorAll('source') ?? []).flatMap((source) =>
      srcsetCandidates(source.getAttribute('srcset') ?? source.getAttribute('data-srcset'), baseUrl),
    ),
  ];
  const declared = LAZY_SOURCES.map((name) => img.getAttribute(name)).find(
    (value) => value && !/^data:/i.test(value.trim()),
  );
  const entry: Partial<ImageEntry> & { source: ImageEntry['source'] } = {
    source: picture ? 'picture' : 'img',
    alt: collapseWhitespace(img.getAttribute('alt') ?? '') || null,
    srcset,
  };
  // Without a src, the largest srcset candidate is the image.
  const url = declared ?? srcset[srcset.length - 1]?.url ?? null;
  list.add(url ? resolveUrl(url, baseUrl) : null, {
    ...entry,
    width: img.getAttribute('width'),
    height: img.getAttribute('height'),
  });
}

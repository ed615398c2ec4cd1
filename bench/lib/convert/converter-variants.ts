import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { decodeBody } from '../../../engines/http/decode-body.js';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import {
  type ContentInput,
  type ConvertContext,
  createContentPipeline,
  createMdreamConverter,
  createTurndownConverter,
  loadMdream,
  type MarkdownConverter,
  type MdreamBinding,
} from '../../../src/pipeline/index.js';
import { parseLeanPage, parsePage } from '../../../src/pipeline/dom.js';
import { writeConverterHtml } from '../../../src/pipeline/markdown/converter-html.js';
import { MarkdownDraft } from '../../../src/pipeline/markdown/markdown-draft.js';
import { REPO_ROOT } from '../paths.js';

/**
 * What the converter comparison measures (bench/convert-compare.bench.ts). A `dom` variant gets the
 * cleaned content root a markdown stage gets (parsed and cleaned before its clock starts); a
 * `string` variant gets the page's HTML as fetched; a `pipeline` variant runs the whole content
 * pipeline (parse, metadata, cleanup, markdown) on it: on the lean tree where the converter takes
 * it, with linkedom's DOM when `dom` (as before the lean tree); the parse variants parse alone.
 */
export type Variant =
  | { id: string; kind: 'dom'; run: (root: Element, context: ConvertContext) => unknown; lean?: boolean }
  | { id: string; kind: 'dom-html'; run: (html: string) => unknown }
  | { id: string; kind: 'string'; run: (html: string) => unknown }
  | { id: string; kind: 'pipeline'; converter: MarkdownConverter; dom?: boolean };

export interface Page extends ContentInput {
  name: string;
}

interface KreuzbergModule {
  convert(html: string, options?: { extractMetadata?: boolean }): { content?: string };
}

const require = createRequire(import.meta.url);
const PAGE_URL = 'http://127.0.0.1:8000/page.html';

/** The variants that can run here, and notes on those that cannot (a binary npm did not install). */
export function converterVariants(): { variants: Variant[]; notes: string[] } {
  const notes: string[] = [];
  const native = loadMdream('native');
  const wasm = loadMdream('wasm').binding as MdreamBinding;
  const nativeBinding = native.binding?.kind === 'native' ? native.binding : null;
  if (!nativeBinding) notes.push(`no native mdream: ${native.problems.join('; ')}`);
  const raw = nativeBinding ?? wasm;
  let kreuzberg: KreuzbergModule | null = null;
  try {
    kreuzberg = require('@kreuzberg/html-to-markdown-node') as KreuzbergModule;
  } catch (err) {
    notes.push(`no kreuzberg: ${(err as Error).message.split('\n')[0]}`);
  }
  const turndown = createTurndownConverter();
  const variants: Variant[] = [
    { id: 'turndown', kind: 'dom', run: (root, context) => turndown.convert(root, context) },
    ...(nativeBinding ? [mdreamDomVariant('mdream', nativeBinding)] : []),
    mdreamDomVariant('mdream-wasm', wasm),
    {
      id: 'html writer alone',
      kind: 'dom',
      run: (root, context) => writeConverterHtml(root, context.baseUrl, new MarkdownDraft()),
    },
    mdreamDomVariant('mdream-wasm on the lean tree', wasm, true),
    {
      id: 'html writer alone, lean tree',
      kind: 'dom',
      lean: true,
      run: (root, context) => writeConverterHtml(root, context.baseUrl, new MarkdownDraft()),
    },
    { id: 'outerHTML of the cleaned root', kind: 'dom', run: (root) => root.outerHTML },
    {
      id: `${raw.kind === 'native' ? 'mdream' : 'mdream-wasm'} raw: cleaned outerHTML`,
      kind: 'dom-html',
      run: raw.convert,
    },
    {
      id: `${raw.kind === 'native' ? 'mdream' : 'mdream-wasm'} raw: page as fetched`,
      kind: 'string',
      run: raw.convert,
    },
  ];
  if (kreuzberg) {
    const k = kreuzberg;
    const convert = (html: string): unknown => k.convert(html, { extractMetadata: false }).content;
    variants.push({ id: 'kreuzberg raw: cleaned outerHTML', kind: 'dom-html', run: convert });
    variants.push({ id: 'kreuzberg raw: page as fetched', kind: 'string', run: convert });
  }
  variants.push({ id: 'pipeline, turndown', kind: 'pipeline', converter: turndown });
  const fastest = nativeBinding ?? wasm;
  const fastestName = fastest.kind === 'native' ? 'mdream' : 'mdream-wasm';
  const mdream = createMdreamConverter(fastest);
  variants.push({ id: `pipeline, ${fastestName}, linkedom DOM`, kind: 'pipeline', converter: mdream, dom: true });
  variants.push({ id: `pipeline, ${fastestName}, lean tree`, kind: 'pipeline', converter: mdream });
  variants.push({ id: 'parse: linkedom (parsePage)', kind: 'string', run: (html) => parsePage(html, PAGE_URL) });
  variants.push({
    id: 'parse: lean tree (parseLeanPage)',
    kind: 'string',
    run: (html) => parseLeanPage(html, PAGE_URL),
  });
  return { variants, notes };
}

function mdreamDomVariant(id: string, binding: MdreamBinding, lean = false): Variant {
  const converter = createMdreamConverter(binding);
  return { id, kind: 'dom', lean, run: (root, context) => converter.convert(root, context) };
}

/** The first `count` article pages of the generated site. */
export function sitePages(siteDir: string, count: number): Page[] {
  const manifest = JSON.parse(readFileSync(path.join(siteDir, 'manifest.json'), 'utf8')) as { articlePaths: string[] };
  return manifest.articlePaths.slice(0, count).map((p) => ({
    name: p,
    url: `http://127.0.0.1:8000${p}`,
    text: readFileSync(path.join(siteDir, p), 'utf8'),
    contentType: 'text/html',
  }));
}

/** The golden pages (test/fixtures/pages), decoded and addressed as the golden test does. */
export function goldenPages(): Page[] {
  const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'pages');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.html'.length);
      const { text, contentType } = decodeBody(readFileSync(path.join(dir, file)), 'text/html');
      return { name, text: text ?? '', url: `https://www.example.com/section/${name}.html`, contentType };
    });
}

/** CPU time of this process (all threads: V8's GC helpers count too), in ms. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The CPU time of one run of `variant` on `page` (ms). Preparation (parsing and cleaning for the
 * DOM variants, serialising for `dom-html`) happens before the clock starts.
 */
export function timeVariant(variant: Variant, page: Page): number {
  if (variant.kind === 'string') {
    const start = cpuMs();
    variant.run(page.text);
    return cpuMs() - start;
  }
  if (variant.kind === 'pipeline') {
    const pipeline = pipelineFor(variant.converter);
    const start = cpuMs();
    const options = pipeline.prepare(MARKDOWN);
    pipeline.process(page, variant.dom ? { ...options, needsDom: true } : options);
    return cpuMs() - start;
  }
  let elapsed = 0;
  probeRun = (root, context) => {
    const html = variant.kind === 'dom-html' ? root.outerHTML : '';
    const start = cpuMs();
    if (variant.kind === 'dom-html') variant.run(html);
    else variant.run(root, context);
    elapsed = cpuMs() - start;
  };
  pipelineFor(variant.kind === 'dom' && variant.lean ? leanProbe : probe).process(page, MARKDOWN);
  return elapsed;
}

/** Runs the variant being timed on the content root, in place of the markdown stage's converter. */
let probeRun: (root: Element, context: ConvertContext) => void = () => undefined;
const probe: MarkdownConverter = {
  id: 'probe',
  convert(root, context) {
    probeRun(root as Element, context);
    return '';
  },
};

/** The same on the lean tree (the probe reads only what a lean-tree converter may). */
const leanProbe: MarkdownConverter = { ...probe, id: 'lean probe', leanTree: true };

const MARKDOWN = { formats: ['markdown' as const] };
const pipelines = new Map<MarkdownConverter, ReturnType<typeof createContentPipeline>>();

function pipelineFor(converter: MarkdownConverter): ReturnType<typeof createContentPipeline> {
  let pipeline = pipelines.get(converter);
  if (!pipeline) {
    pipeline = createContentPipeline({ transformers: builtinTransformers, converter });
    pipelines.set(converter, pipeline);
  }
  return pipeline;
}

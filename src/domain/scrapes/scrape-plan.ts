import type { Capability, PageAction, PageRequest } from '../../engine/types.js';
import { errors } from '../../errors.js';
import { actionWaitMs, type ScrapeOptions } from './scrape.schema.js';

/** Screen presets (decisions.md, "Scrapes"). */
const SCREENS = {
  default: { width: 1024, height: 768, mobile: false },
  mobile: { width: 414, height: 896, mobile: true },
  desktop: { width: 1920, height: 1080, mobile: false },
} as const;

export interface ScrapePlan {
  needs: Capability[];
  /** Total time budget of the fetch: the engine timeout plus the waits the request asked for. */
  timeoutMs: number;
  browser: PageRequest['browser'];
  /** The content formats the pipeline must produce. */
  contentFormats: ('markdown' | 'html' | 'text')[];
  wantsJson: boolean;
}

/**
 * What a scrape needs from an engine and how long it may take. Actions, screenshots, screen
 * sizes, raw_pdf and waits imply a browser (decisions.md); `json` needs a parser or llm_extract
 * (exactly one), and either of them implies `json`.
 */
export function planScrape(options: ScrapeOptions, baseTimeoutMs: number): ScrapePlan {
  const formats = options.formats ?? ['markdown'];
  const needs = new Set<Capability>();
  const actions = (options.actions ?? []) as PageAction[];
  if (actions.length > 0) needs.add('actions');
  if (wantsScreenshot(options)) needs.add('screenshot');
  if (formats.includes('raw_pdf')) needs.add('pdf');
  if (options.screen_size) needs.add('screen');
  if ((options.wait_before_scraping ?? 0) > 0) needs.add('javascript');
  if (formats.includes('json') && !options.parser && !options.llm_extract) {
    throw errors.validation('formats: "json" needs a parser ({"parser": {"id": ...}}) or llm_extract to produce it');
  }
  if (options.parser && options.llm_extract) {
    throw errors.validation('llm_extract: send either parser or llm_extract, not both (json_content holds one output)');
  }
  // A parser or llm_extract asks for json_content even when `formats` does not list it.
  const wantsJson = formats.includes('json') || options.parser !== undefined || options.llm_extract !== undefined;
  const browserNeeded = needs.size > 0;
  const waits = (options.wait_before_scraping ?? 0) + actionWaitMs(options.actions ?? []);
  return {
    needs: [...needs],
    timeoutMs: baseTimeoutMs + waits,
    browser: browserNeeded ? browserSettings(options, actions) : undefined,
    contentFormats: formats.filter(
      (f): f is 'markdown' | 'html' | 'text' => f === 'markdown' || f === 'html' || f === 'text',
    ),
    wantsJson,
  };
}

function browserSettings(options: ScrapeOptions, actions: PageAction[]): NonNullable<PageRequest['browser']> {
  const formats = options.formats ?? ['markdown'];
  const preset = SCREENS[options.screen_size?.screen_type ?? 'default'];
  const shot = options.screenshot;
  return {
    waitBeforeMs: options.wait_before_scraping,
    actions,
    screenshot: wantsScreenshot(options)
      ? { fullPage: typeof shot === 'object' ? (shot.full_page ?? false) : false }
      : null,
    printPdf: formats.includes('raw_pdf'),
    screen: options.screen_size
      ? {
          width: options.screen_size.screen_width ?? preset.width,
          height: options.screen_size.screen_height ?? preset.height,
          mobile: preset.mobile,
        }
      : undefined,
  };
}

/** `formats: ["screenshot"]` or `screenshot: true | {full_page}` ask for one. */
export function wantsScreenshot(options: ScrapeOptions): boolean {
  return (
    (options.formats ?? []).includes('screenshot') || (options.screenshot !== undefined && options.screenshot !== false)
  );
}

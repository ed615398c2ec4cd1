import type { OpenedBrowser } from './browser-pool.js';
import { browserProcessIds } from './process-tree.js';

export interface LaunchOptions {
  executablePath: string;
  /** V8 heap limit of each renderer process, MB. */
  pageHeapMb: number;
  /** Default 30 s. */
  launchTimeoutMs?: number;
}

/** Flags for a headless scraping browser in a container (see docs/engines.md, "The playwright engine"). */
export function chromiumArgs(pageHeapMb: number): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-breakpad',
    '--mute-audio',
    '--hide-scrollbars',
    // Scroll actions land at once instead of animating.
    '--disable-smooth-scrolling',
    '--password-store=basic',
    '--use-mock-keychain',
    '--metrics-recording-only',
    // Everything leaves through the guard proxy: no QUIC, no WebRTC UDP around it.
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,NetworkPrediction,InterestFeedContentSuggestions',
    '--disable-blink-features=AutomationControlled',
    `--js-flags=--max-old-space-size=${pageHeapMb}`,
  ];
}

/** Launches serialised across the process, so the new browser's pid can be told from others'. */
let launchQueue: Promise<unknown> = Promise.resolve();

/**
 * Launches this machine's Chromium for the pool (`BrowserPoolOptions.open`). Launches are
 * serialised across the process, so the new browser's pid can be told from others'.
 *
 * @example
 * const pool = createBrowserPool({ size: 4, restartAfterPages: 500, open: () => launchChromium({ executablePath, pageHeapMb: 512 }) });
 */
export async function launchChromium(options: LaunchOptions): Promise<OpenedBrowser> {
  const run = launchQueue.then(async () => {
    // playwright-core is loaded on the first launch: a service that never renders a page does
    // not carry it (tens of MB of heap).
    const { chromium } = await import('playwright-core');
    const before = new Set(browserProcessIds());
    const browser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      args: chromiumArgs(options.pageHeapMb),
      timeout: options.launchTimeoutMs ?? 30_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const pid = browserProcessIds().find((p) => !before.has(p)) ?? null;
    return { browser, pid };
  });
  launchQueue = run.catch(() => undefined);
  return run;
}

import type { BrowserContextOptions } from 'playwright-core';
import type { RenderSettings } from './browser-settings.js';

/**
 * How the browser presents itself: the user agent of the Chromium actually rendering (without
 * "HeadlessChrome"), and the headers its navigation would send, so that the document fetched in
 * Node and the subresources fetched by Chromium come from one consistent client.
 */
export function userAgentFor(major: number, mobile: boolean): string {
  return mobile
    ? `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
    : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** Headers of a top-level navigation typed into Chromium's address bar. */
export function navigationHeaders(major: number, mobile: boolean): Record<string, string> {
  return {
    'user-agent': userAgentFor(major, mobile),
    'sec-ch-ua': `"Chromium";v="${major}", "Not/A)Brand";v="24"`,
    'sec-ch-ua-mobile': mobile ? '?1' : '?0',
    'sec-ch-ua-platform': mobile ? '"Android"' : '"Linux"',
    'upgrade-insecure-requests': '1',
    accept:
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    'sec-fetch-site': 'none',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-user': '?1',
    'sec-fetch-dest': 'document',
    'accept-language': 'en-US,en;q=0.9',
  };
}

/**
 * Options of the fresh context each scrape gets: its own cookies and storage, the requested
 * screen (mobile: touch, mobile viewport meta, mobile user agent), no downloads, no service
 * workers (their requests would bypass the route layer), and the guard proxy session.
 */
export function contextOptions(
  settings: RenderSettings,
  major: number,
  proxy: BrowserContextOptions['proxy'],
): BrowserContextOptions {
  const { width, height, mobile } = settings.screen;
  return {
    viewport: { width, height },
    screen: { width, height },
    deviceScaleFactor: 1,
    isMobile: mobile,
    hasTouch: mobile,
    userAgent: userAgentFor(major, mobile),
    locale: 'en-US',
    acceptDownloads: false,
    serviceWorkers: 'block',
    // As the http engine: scraping does not verify certificates (a failed handshake still fails).
    ignoreHTTPSErrors: true,
    proxy,
  };
}

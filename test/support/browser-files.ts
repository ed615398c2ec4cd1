/**
 * Files that start Chromium. A browser page costs Chromium about half a second of CPU even when
 * it is empty, so on a 2-core machine two of these files at once (beside the rest of the suite)
 * push pages past their time budgets: `browser-slot.ts` lets one run at a time, beside the rest.
 */
export const BROWSER_FILES = [
  /\/test\/contract\/playwright-[^/]+\.test\.ts$/,
  /\/test\/contract\/cdp-[^/]+\.test\.ts$/,
  /\/test\/integration\/scrapes-browser\.test\.ts$/,
  /\/test\/integration\/remote-browser\.test\.ts$/,
  /\/test\/regression\/graphiql-blank-without-internet\.test\.ts$/,
  /\/test\/unit\/pdf\/pdf-text\.test\.ts$/,
];

export const isBrowserFile = (file: string) => BROWSER_FILES.some((pattern) => pattern.test(file.replace(/\\/g, '/')));

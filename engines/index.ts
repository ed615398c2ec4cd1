// The engines this build ships, one line each: a folder here declares one (`defineEngine`, see
// docs/engines.md, "Adding an engine"), and this line lists it. The configuration, the
// composition root, GET /v1/status and `npm run config:docs` read this list (src/plugins.ts);
// the order of the lines does not matter (priorities do).
export { httpEngine } from './http/http.definition.js';
export { playwrightEngine } from './playwright/playwright.definition.js';
export { crawleeEngine } from './crawlee/crawlee.definition.js';
export { cdpEngine } from './cdp/cdp.definition.js';

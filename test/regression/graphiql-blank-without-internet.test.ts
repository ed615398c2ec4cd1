import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs } from '../../engines/playwright/browser-launch.js';
import { CHROMIUM } from '../contract/playwright-support.js';
import { startTestApp, type TestApp } from '../support/app.js';

// Broke: the GraphiQL page loaded its scripts, styles and editor workers from a CDN, so without
// internet it stayed blank. The service now serves them itself; this drives the page in Chromium
// with every host but the service's unresolvable and every other request aborted.
let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  app = await startTestApp();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...chromiumArgs(512), '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost'],
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it('renders the editor and runs a query with a key, offline', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const elsewhere: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${app.url}/`)) return route.continue();
    elsewhere.push(url);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  await page.goto(`${app.url}/graphql`);
  const headers = page.locator('section.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor');
  await headers.waitFor({ timeout: 60_000 });
  await headers.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete'); // typing "{" over a selection would wrap it
  // Typed as a person would: the editor closes brackets and quotes, and typing over them keeps one.
  await page.keyboard.type(JSON.stringify({ Authorization: `Bearer ${app.key}` }));
  // The schema is introspected with the key now in the headers.
  await page.getByRole('button', { name: /Re-fetch GraphQL schema/ }).click();
  await page.locator('.graphiql-query-editor .monaco-editor').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('{ me { teamId via } }');
  await page.locator('.graphiql-execute-button').click();
  await expect.poll(() => page.locator('.result-window').innerText(), { timeout: 30_000 }).toContain(app.teamId);
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  await expect
    .poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 30_000 })
    .toMatch(/Root Types[\s\S]*query:\s*Query/);
  expect(elsewhere).toEqual([]);
  await context.close();
});

it('serves the assets compressed and revalidates them by ETag', async () => {
  const js = await fetch(`${app.url}/graphql/assets/graphiql.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(js.status).toBe(200);
  expect(js.headers.get('content-encoding')).toBe('gzip');
  expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect((await js.text()).length).toBeGreaterThan(1_000_000);
  const again = await fetch(`${app.url}/graphql/assets/graphiql.js`, {
    headers: { 'if-none-match': js.headers.get('etag')! },
  });
  expect(again.status).toBe(304);
  expect((await fetch(`${app.url}/graphql/assets/nope.js`)).status).toBe(404);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

// Broke: a new user opening the service's address (GET /) got a 404. It now sends them to the
// API reference at /docs.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

it('redirects GET / to /docs, which a browser then shows', async () => {
  const res = await fetch(`${app.url}/`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe('/docs');
  const followed = await fetch(`${app.url}/`, { headers: { accept: 'text/html' } });
  expect(followed.status).toBe(200);
  expect(followed.url).toBe(`${app.url}/docs`);
  expect(await followed.text()).toContain('API key');
});

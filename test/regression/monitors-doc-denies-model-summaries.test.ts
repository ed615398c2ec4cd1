import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// Broke: docs/monitors.md said under "With and without a model" that a configured model writes a
// change's summary, and under "Not yet" that the deterministic planner and summary always run.
// The model plans and summarises (test/integration/monitors-model.test.ts); the page now says so
// once, with what happens when the model fails.

const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/monitors.md'), 'utf8');

it('says once that a configured model plans and summarises, and what happens when it fails', () => {
  expect(doc).not.toMatch(/deterministic planner and summary always run/);
  expect(doc).toMatch(/With a model configured \(`MODEL_BASE_URL`[^)]*\), the model plans/);
  expect(doc).toMatch(/With a model configured, a `changed` event's summary is the model's/);
  expect(doc).toMatch(
    /When the model fails, or names nothing the monitor may\s+track, the deterministic planner's plan is used/,
  );
  const notYet = doc.slice(doc.indexOf('## Not yet'));
  expect(notYet).not.toMatch(/model/i);
});

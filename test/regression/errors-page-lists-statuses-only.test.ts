import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/error-codes.js';
import { renderErrorsPage } from '../../src/http/docs-page.js';

// Broke: the errors page behind every envelope's `type` URL listed the HTTP statuses only, so a
// client meeting `signed_url_used` or `invalid_file_purpose` had nowhere to read what it meant or
// what to do. The page now lists every code with its meaning and fix, and this test finds every
// code the sources throw, so a new one cannot go undocumented (nor a removed one stay listed).

const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const dir of ['src', 'engines', 'plugins', 'schema']) walk(path.join(ROOT, dir));
  return files;
}

/** The helpers of src/errors.ts and the code and kind each throws. */
const HELPERS: Record<string, [code: string, kind: string]> = {
  validation: ['validation_error', 'validation'],
  unauthorized: ['invalid_api_key', 'unauthorized'],
  blocked: ['blacklisted_domain', 'forbidden'],
  upstream: ['upstream_error', 'upstream'],
  timeout: ['request_timeout', 'timeout'],
};

/** code → kinds it is thrown with; template codes (`monitor_not_${…}`) as patterns. */
function thrown(): { codes: Map<string, Set<string>>; patterns: { pattern: RegExp; kind: string; where: string }[] } {
  const codes = new Map<string, Set<string>>();
  const patterns: { pattern: RegExp; kind: string; where: string }[] = [];
  const add = (code: string, kind: string) => (codes.get(code) ?? codes.set(code, new Set()).get(code)!).add(kind);
  for (const file of sources()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:new AppError|super)\(\s*'(\w+)',\s*(?:'(\w+)'|`([^`]*)`)/g)) {
      if (m[2]) add(m[2], m[1]!);
      else if (m[3]?.includes('${'))
        patterns.push({
          pattern: new RegExp(`^${m[3].replace(/\$\{[^}]*\}/g, '\\w+')}$`),
          kind: m[1]!,
          where: path.relative(ROOT, file),
        });
    }
    for (const m of text.matchAll(/(?:errors\.notFound|resourceId)\(\s*'(\w+)'/g))
      add(`${m[1]}_not_found`, 'not_found');
    for (const m of text.matchAll(/\berrors\.(\w+)\(/g)) {
      const helper = HELPERS[m[1]!];
      if (helper) add(helper[0], helper[1]);
    }
  }
  return { codes, patterns };
}

it('documents every code the service throws, with the kind it is thrown with', () => {
  const { codes, patterns } = thrown();
  expect(codes.size).toBeGreaterThan(40);
  const missing = [...codes].filter(([code]) => !ERROR_CODES[code]).map(([code]) => code);
  expect(missing).toEqual([]);
  for (const [code, kinds] of codes) expect([...kinds], code).toEqual([ERROR_CODES[code]!.kind]);
  for (const { pattern, kind, where } of patterns) {
    const documented = Object.entries(ERROR_CODES).filter(([code, doc]) => pattern.test(code) && doc.kind === kind);
    expect(documented.length, `${pattern} (${where})`).toBeGreaterThan(0);
  }
  // And nothing documented that no source throws.
  const stale = Object.keys(ERROR_CODES).filter(
    (code) => !codes.has(code) && !patterns.some((p) => p.pattern.test(code)),
  );
  expect(stale).toEqual([]);
});

it('lists every code with its meaning and what to do, on the page of its status', () => {
  const all = renderErrorsPage()!;
  for (const [code, doc] of Object.entries(ERROR_CODES)) {
    expect(all).toContain(`<tr id="${code}"><td><code>${code}</code></td>`);
    expect(doc.meaning.length, code).toBeGreaterThan(20);
    expect(doc.fix.length, code).toBeGreaterThan(10);
  }
  const notFound = renderErrorsPage('not_found')!;
  expect(notFound).toContain('<code>scrape_not_found</code>');
  expect(notFound).toContain('<code>route_not_found</code>');
  expect(notFound).not.toContain('<code>validation_error</code>');
  expect(renderErrorsPage('bad_request')).toContain('<code>validation_error</code>');
  expect(renderErrorsPage('no_such_slug')).toBeNull();
  // Code spans of the texts render as code, never as literal backticks.
  expect(all).not.toContain('`');
});

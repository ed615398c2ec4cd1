import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, validate } from 'graphql';
import { expect, it } from 'vitest';
import { buildSchema } from '../../schema/index.js';
import { APP_MODULES } from '../../src/modules.js';

// Broke: the README left a newcomer without a first scrape right after the key, without a
// batch, crawl, map or subscription example, without the Node version it needs, and linked to
// a spec outside the repository. Its requests were tried by hand against `npm start`; this
// holds them to the API: every curl body is valid for its route, every path exists, the
// subscriptions validate against the schema, and every link stays in the repository.
const ROOT = path.resolve(import.meta.dirname, '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
// The route declarations only (no services behind them).
const routes = APP_MODULES.flatMap((m) => m.routes?.({}) ?? []);

interface Curl {
  method: string;
  path: string;
  body: unknown;
}

/** The curl commands of the README's sh blocks: method, /v1 path (placeholders kept) and JSON body. */
function curls(): Curl[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n/g, ' '));
  return blocks
    .flatMap((block) => block.split(/\n(?=curl )/))
    .filter((command) => command.startsWith('curl ') && command.includes('localhost:8080/v1/'))
    .map((command) => {
      const data = /-d '([\s\S]*?)'/.exec(command)?.[1];
      const url = /localhost:8080(\/v1\/[^\s"']*)/.exec(command)![1]!;
      const explicit = /-X ([A-Z]+)/.exec(command)?.[1]?.toLowerCase();
      const method = explicit ?? (data ? 'post' : 'get');
      // `<file_id>` and the like stand for ids of the answers before (ids of that shape).
      const body = data?.replace(/<(\w+)_id>/g, '$1_0123456789abcdefghij');
      return { method, path: url.split('?')[0]!, body: body ? JSON.parse(body) : undefined };
    });
}

function routeFor(curl: Curl) {
  return routes.find((r) => {
    const pattern = new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return r.method === curl.method && pattern.test(curl.path);
  });
}

it('shows a first scrape of a public page and of a local one, a batch with a webhook, a crawl and a map', () => {
  const posts = curls().filter((c) => c.method === 'post');
  const bodies = (p: string) => posts.filter((c) => c.path === p).map((c) => c.body as Record<string, unknown>);
  expect(bodies('/v1/scrapes').map((b) => b.url_to_scrape)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^https:\/\//), expect.stringMatching(/^http:\/\/localhost:/)]),
  );
  expect(bodies('/v1/batches').some((b) => typeof b.webhook === 'string')).toBe(true);
  expect(bodies('/v1/crawls')).not.toHaveLength(0);
  expect(bodies('/v1/maps')).not.toHaveLength(0);
  expect(README).toMatch(/OUTBOUND_ALLOW_PRIVATE=true npm start/);
});

it('sends only requests the API accepts', () => {
  const all = curls();
  expect(all.length).toBeGreaterThan(5);
  for (const curl of all) {
    const route = routeFor(curl);
    expect(route, `${curl.method} ${curl.path}`).toBeDefined();
    if (curl.body === undefined) continue;
    const parsed = route!.body!.safeParse(curl.body);
    expect(parsed.success, `${curl.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  }
});

it('subscribes with documents the schema accepts', () => {
  const queries = [
    ...README.matchAll(/"query": "(subscription[^"]*)"/g),
    ...README.matchAll(/query: '(subscription[^']*)'/g),
  ];
  expect(queries.length).toBeGreaterThanOrEqual(2);
  for (const [, query] of queries) expect(validate(buildSchema(), parse(query!)), query).toEqual([]);
});

it('says which Node it needs, as package.json does', () => {
  const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
    .engines.node;
  // "^20.19.0 || ^22.13.0 || >=24": Node.js 24 first, then the older lines with their lowest minor.
  const lines = engines.split('||').map((range) => /(\d+)(?:\.(\d+))?/.exec(range)!.slice(1));
  const newest = lines.pop()!;
  expect(README).toContain(`**Node.js ${newest[0]}**`);
  for (const [major, minor] of lines) expect(README).toContain(`${major}.${minor} or newer`);
});

it('links only to files inside the repository', () => {
  const targets = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  const local = targets.filter((t) => !/^(https?:|mailto:|#)/.test(t));
  expect(local.length).toBeGreaterThan(0);
  for (const target of local) {
    const file = path.resolve(ROOT, target.split('#')[0]!);
    expect(file.startsWith(`${ROOT}${path.sep}`), target).toBe(true);
    expect(existsSync(file), target).toBe(true);
  }
  for (const target of targets.filter((t) => /^https?:/.test(t))) expect(target).toMatch(/^http:\/\/localhost:8080\//);
});

it('shows answers, searches, monitors, parsers and a file, each linking its page', () => {
  for (const path of ['/v1/answers', '/v1/searches', '/v1/monitors', '/v1/parsers', '/v1/files'])
    expect(curls().some((c) => c.path === path)).toBe(true);
  for (const page of ['answers.md', 'monitors.md', 'models.md', 'files.md'])
    expect(README).toContain(`](docs/${page})`);
  // What items.json holds is shown, as the file the upload example sends.
  expect(README).toMatch(/```json items\.json\n\{\n {2}"items": \[/);
});

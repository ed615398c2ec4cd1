import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import {
  placeholderValue,
  readmeExamples,
  serviceLine,
  type Answers,
  type ReadmeExample,
} from '../support/readme-examples.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Broke: the README's examples were only parsed (readme-fails-a-newcomer.test.ts), never run, and
// it had none for answers, searches, monitors or parsers, nor said what items.json holds. Every
// example of the README now runs here, as written, against `npm start` and a local copy of the
// sites it names: only the service's address, the target sites' addresses, the webhook port and
// the `<placeholders>` (from the answers before them) are substituted. An example that stops
// working, or a README change that breaks one, fails this test.

const ROOT = path.resolve(import.meta.dirname, '../..');
const examples = readmeExamples();

let site: FixtureServer;
let service: SpawnedService;
let work: string;
let hookPort: number;
const background: { name: string; child: ChildProcess; out: () => string }[] = [];

/** A free port for the README's webhook receiver (it listens on a fixed port of its own). */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The README's addresses → this test's: the service, the example sites, the webhook receiver. */
function substitute(text: string, answers: Answers): string {
  return text
    .replaceAll('http://localhost:8080', service.url)
    .replaceAll('ws://localhost:8080', service.url.replace('http:', 'ws:'))
    .replaceAll('https://hooks.example.com/gleaner', `http://localhost:${hookPort}/hooks`)
    .replace(/https:\/\/(www\.iana\.org|example\.com)|http:\/\/localhost:3000/g, site.origin)
    .replaceAll('localhost:9000', `localhost:${hookPort}`)
    .replaceAll('listen(9000)', `listen(${hookPort})`)
    .replace(/<(\w+)>/g, (whole, name: string) => {
      const value = placeholderValue(name, answers);
      if (value === undefined) throw new Error(`nothing before this example gave ${whole}: ${text}`);
      return value;
    });
}

function run(command: string, env: Record<string, string>): ChildProcess {
  return spawn('bash', ['-c', command], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, ended as a whole
  });
}

function collect(child: ChildProcess): () => string {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return () => out;
}

// curl's status after the body (the README's commands stay as written).
const CURL = `curl() { command curl -w '\\n@status %{http_code}' "$@"; }\n`;

async function once(command: string, env: Record<string, string>): Promise<{ status: number; body: string }> {
  const child = run(CURL + command, env);
  const out = collect(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const text = out();
  const status = Number(/\n@status (\d+)$/.exec(text)?.[1] ?? 0);
  expect(code, `${command}\n${text}`).toBe(0);
  return { status, body: text.replace(/\n@status \d+$/, '') };
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/': html(
      '<title>Example Domain</title><h1>Example Domain</h1><p>This domain is for use in documentation examples.</p>' +
        '<a href="/pricing">Pricing</a> <a href="/contact">Contact</a> <a href="/help/example-domains">Example domains</a>',
    ),
    '/pricing': html(
      '<title>Pricing</title><h1>Pricing</h1><p>Plan: Starter</p><p>Price: $9 per month</p><a href="/">Home</a>',
    ),
    '/contact': html('<title>Contact</title><h1>Contact</h1><p>Write to hello@example.com.</p><a href="/">Home</a>'),
    '/help/example-domains': html(
      '<title>Example domains</title><h1>Example domains</h1><p>Reserved for examples.</p>',
    ),
  });
  // The project folder (watch.mjs imports its packages); the service's ./data lives here too.
  mkdirSync(path.join(ROOT, '.scratch'), { recursive: true });
  work = mkdtempSync(path.join(ROOT, '.scratch', 'readme-'));
  // What the README's start lines set (OUTBOUND_ALLOW_PRIVATE, WEBHOOK_ALLOW_HTTP), on embedded defaults.
  const env = Object.assign(
    {},
    ...examples.map((e) => (e.kind === 'command' ? serviceLine(e.text) : null)).filter(Boolean),
  ) as Record<string, string>;
  expect(env).toEqual({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
  service = await spawnService(env, [], 180_000, 'listening', work);
}, 240_000);

afterAll(async () => {
  for (const { child } of background) if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  await service?.stop('SIGKILL');
  await site?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const isListener = (c: string) => /^curl -sN /.test(c) || /^node -e .*\.listen\(/.test(c);

it('runs every example of the README, as written, against npm start', { timeout: 600_000 }, async () => {
  const key = (await once('cat data/api-key', {})).body.trim();
  const env = { KEY: key };
  const answers: Answers = [];
  const results: { command: string; status: number; json: Record<string, unknown> | null }[] = [];

  // Chosen just before the receiver listens on it: others' tests take free ports meanwhile.
  hookPort = await freePort();
  // Files first (items.json), then what keeps running (the webhook receiver, the event streams).
  for (const e of examples.filter((x): x is Extract<ReadmeExample, { kind: 'file' }> => x.kind === 'file'))
    writeFileSync(path.join(work, e.name), substitute(e.text, answers));
  for (const e of examples.filter((x) => x.kind === 'command' && isListener(x.text))) {
    const child = run(substitute(e.text, answers), env);
    background.push({ name: e.text.slice(0, 40), child, out: collect(child) });
  }
  const watch = run(`exec ${JSON.stringify(process.execPath)} watch.mjs`, {});
  background.push({ name: 'watch.mjs', child: watch, out: collect(watch) });
  await new Promise((resolve) => setTimeout(resolve, 1000)); // the receiver listens, the streams subscribe

  for (const e of examples) {
    if (e.kind !== 'command' || serviceLine(e.text) || isListener(e.text)) continue;
    if (/^KEY=/.test(e.text)) {
      expect((await once(`${e.text}; printf %s "$KEY"`, {})).body).toBe(key);
      continue;
    }
    const command = substitute(e.text, answers);
    let answer = await once(command, env);
    // A monitor still provisioning cannot run yet (409): a person repeats the command.
    for (let i = 0; answer.status === 409 && i < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      answer = await once(command, env);
    }
    expect(answer.status, `README line ${e.line}: ${command}\n${answer.body}`).toBeGreaterThanOrEqual(200);
    expect(answer.status, `README line ${e.line}: ${command}\n${answer.body}`).toBeLessThan(300);
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(answer.body) as Record<string, unknown>;
      answers.push(json);
    } catch {
      // The PUT of items.json answers an empty body.
    }
    results.push({ command: e.text, status: answer.status, json });
  }

  const body = (pattern: RegExp) => results.filter((r) => pattern.test(r.command)).map((r) => r.json!);
  // The first scrape, and the page on "your own machine".
  for (const scrape of body(/"formats": \["markdown"\]}'$/).filter((j) => j.object === 'scrape'))
    expect((scrape.result as { markdown_content: string }).markdown_content).toContain('# Example Domain');
  // The parser found the address; the rules filled the price; the answer read the pricing page.
  const [emails, extract] = body(/"formats": \["json"\]/);
  expect(JSON.parse((emails!.result as { json_content: string }).json_content)).toMatchObject({
    emails: ['hello@example.com'],
  });
  expect(JSON.parse((extract!.result as { json_content: string }).json_content)).toEqual({
    plan: 'Starter',
    price: '$9 per month',
  });
  const [answer] = body(/\/v1\/answers /);
  expect(answer).toMatchObject({ status: 'completed' });
  expect(JSON.parse((answer!.result as { json_content: string }).json_content)).toEqual({
    plan: 'Starter',
    price: '$9 per month',
  });
  // The file holds two items; the search finds the pricing page scraped above.
  expect(body(/\/complete /)[0]).toMatchObject({ status: 'completed', items_count: 2 });
  const [search] = body(/\/v1\/searches /);
  expect((search!.results as { url: string }[]).map((r) => r.url)).toContain(`${site.origin}/pricing`);

  // The webhook receiver printed the batch's completion; both streams saw batch progress.
  const output = (name: string) => background.find((b) => b.name.startsWith(name))!.out;
  try {
    await expect.poll(() => output('node -e')(), { timeout: 120_000 }).toMatch(/"object":"event\.batch\.completed"/);
  } catch (err) {
    // What the service says it delivered, and the batches' state, to tell a slow machine from a bug.
    const deliveries = await once(`curl -s ${service.url}/v1/webhooks/deliveries -H "Authorization: Bearer $KEY"`, env);
    const batches = body(/\/v1\/batches /).map((b) => b.id);
    const states = await Promise.all(
      batches.map((id) => once(`curl -s ${service.url}/v1/batches/${String(id)} -H "Authorization: Bearer $KEY"`, env)),
    );
    throw new Error(
      `${(err as Error).message}\ndeliveries: ${deliveries.body}\nbatches: ${states.map((s) => s.body).join('\n')}`,
      { cause: err },
    );
  }
  await expect.poll(() => output('curl -sN')(), { timeout: 60_000 }).toMatch(/"__typename":"BatchProgress"/);
  await expect.poll(() => output('watch.mjs')(), { timeout: 60_000 }).toMatch(/"__typename":"BatchProgress"/);
});

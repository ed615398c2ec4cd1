/**
 * What storing a scraped page costs the database (issue 17, item 3): the scrape's one statement
 * (page and scrape rows, the page's search vector) on the embedded PGlite, reached through its
 * socket as the service reaches it: with the search text (parsed by `to_tsvector`), with its
 * vector assembled as the service assembles it (search-vector.ts), without search text, and
 * `to_tsvector` alone.
 * CPU is this process's (all threads: PGlite runs in one of them), per statement, the median of
 * the rounds after the first. Pages: the bench site's articles with their tags stripped, cut to
 * `--chars` (PAGE_SEARCH_TEXT_CHARS, default its default: what a page's markdown gives the index).
 *
 *   node --import tsx bench/page-insert.bench.ts [--pages 100] [--rounds 4] [--chars 20000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openEmbeddedDatabase } from '../src/db/embedded/embedded-database.js';
import { createOrm, migrate } from '../src/db/orm.js';
import { exec, execLarge, type SqlValue } from '../src/db/sql.js';
import { PAGE_INSERT_COLUMNS, PAGE_INSERT_VALUES } from '../src/domain/pages/page-row.js';
import { PAGE_SETTINGS } from '../src/domain/pages/page.settings.js';
import { SearchVectors } from '../src/domain/pages/search-vector.js';
import { DEFAULT_SITE_DIR } from './lib/paths.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '4' },
    chars: { type: 'string', default: PAGE_SETTINGS.PAGE_SEARCH_TEXT_CHARS.default },
  },
});
const articles = path.join(DEFAULT_SITE_DIR, 'docs', 'api');
const texts = fs
  .readdirSync(articles)
  .slice(0, Number(values.pages))
  .map((name) =>
    fs
      .readFileSync(path.join(articles, name), 'utf8')
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .slice(0, Number(values.chars)),
  );

const embedded = await openEmbeddedDatabase(null);
const orm = await createOrm({ connection: embedded.target, poolSize: 4 });
await migrate(orm, embedded.target);
await exec(orm.em, `insert into teams (id, name, settings, created_at) values ('team_bench', 'bench', '{}', now())`);

const SQL = `with page as (insert into pages (${PAGE_INSERT_COLUMNS}) values (${PAGE_INSERT_VALUES}) returning id)
  insert into scrapes (id, team_id, url, page_id, request, metadata, warning, created_at)
  select ?, ?, ?, page.id, ?, ?, ?, now() from page`;
let n = 0;
function params(text: string, vector: string | null = null): SqlValue[] {
  const id = `bench${n++}`;
  const url = `http://127.0.0.1/docs/${id}`;
  const formats = { markdown: { key: `teams/team_bench/pages/${id}/content.md`, bytes: 30_000 } };
  const meta = { title: "A page's title", description: 'What it is about', status_code: 200, final_url: url };
  return [
    ...[id, 'team_bench', 'scrape', url, url, 200, JSON.stringify(formats), JSON.stringify(meta), null, null],
    ...[meta.title, meta.description, vector, vector === null ? text : null],
    ...[`scrape_${id}`, 'team_bench', url, '{"formats":["markdown"]}', '{}', null],
  ];
}

// The text's vector as the service assembles it (search-vector.ts), its pieces read beforehand.
const vectors = new SearchVectors((sql, values) => execLarge(orm.em, sql, values), { maxPieces: 1_000_000 });
const assembled = new Map<string, string | null>();
for (const text of texts) assembled.set(text, await vectors.literal(text));

const variants: Record<string, (text: string) => Promise<unknown>> = {
  'insert (exec: MikroORM formats)': (text) => exec(orm.em, SQL, params(text)),
  'insert (execLarge)': (text) => execLarge(orm.em, SQL, params(text)),
  'insert with the assembled vector (execLarge)': (text) => execLarge(orm.em, SQL, params(text, assembled.get(text)!)),
  'insert without search text (execLarge)': () => execLarge(orm.em, SQL, params('')),
  "to_tsvector('english', text) alone": (text) => exec(orm.em, `select to_tsvector('english', ?) is null`, [text]),
};
const perRound = new Map<string, number[]>();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, run] of Object.entries(variants)) {
    const before = process.cpuUsage();
    for (const text of texts) await run(text);
    const used = process.cpuUsage(before);
    if (round > 0) perRound.set(name, [...(perRound.get(name) ?? []), (used.user + used.system) / 1000 / texts.length]);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const mean = texts.reduce((sum, t) => sum + t.length, 0) / texts.length;
process.stdout.write(
  `${texts.length} pages, search text ${Math.round(mean)} characters on average\n| statement | CPU ms (median of rounds) |\n|---|---:|\n` +
    [...perRound].map(([name, list]) => `| ${name} | ${median(list).toFixed(2)} |`).join('\n') +
    '\n',
);
await orm.close(true);
await embedded.close();

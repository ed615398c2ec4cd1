// `npm run config:docs`: rewrites .env.example and the README's configuration table from
// every setting (src/settings.ts and each module's), so the documentation cannot drift from the code (a test checks it).
import { readFileSync, writeFileSync } from 'node:fs';
import { allSettings } from '../config.js';

const root = new URL('../../', import.meta.url);
const rows = allSettings() as [string, { default?: string; doc: string }][];

const example = [
  '# Gleaner configuration. Copy to .env (npm start and npm run keys read the .env of the folder they',
  '# run in) or export these; a variable set in the environment wins over .env. Every one is optional.',
  "# Lines starting with '# NAME=' are unset by default.",
  '',
  ...rows.flatMap(([name, s]) => [
    `# ${s.doc}`,
    `${s.default === undefined ? '# ' : ''}${name}=${s.default ?? ''}`,
    '',
  ]),
].join('\n');
writeFileSync(new URL('.env.example', root), example);

const table = [
  '| Variable | Default | Meaning |',
  '|---|---|---|',
  ...rows.map(([name, s]) => {
    const def = s.default === undefined || s.default === '' ? '—' : `\`${s.default}\``;
    return `| \`${name}\` | ${def} | ${s.doc.replace(/\|/g, '\\|')} |`;
  }),
].join('\n');
const readmeUrl = new URL('README.md', root);
const readme = readFileSync(readmeUrl, 'utf8');
const start = readme.indexOf('| Variable | Default | Meaning |');
if (start < 0) throw new Error('README.md has no configuration table to replace');
let end = readme.indexOf('\n\n', start);
if (end < 0) end = readme.length;
writeFileSync(readmeUrl, readme.slice(0, start) + table + readme.slice(end));
process.stdout.write(`documented ${rows.length} settings in .env.example and README.md\n`);

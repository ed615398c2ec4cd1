/**
 * Summarises V8 CPU profiles (`node --cpu-prof`): self time by package and by our own files,
 * inclusive time of the scrape pipeline's stages, top functions.
 *
 *   node --import tsx bench/profile-summary.ts <directory of .cpuprofile files> [--top 25] [--json]
 */
import { parseArgs } from 'node:util';
import { summariseProfileDir } from './lib/measure/cpu-profile.js';
import { profileLines } from './lib/scrape/scrape-report.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, json: { type: 'boolean', default: false } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: bench/profile-summary.ts <directory of .cpuprofile files>');
const summaries = await summariseProfileDir(dir, Number(values.top));
process.stdout.write(
  values.json ? `${JSON.stringify(summaries, null, 2)}\n` : `${profileLines(dir, summaries).join('\n')}\n`,
);

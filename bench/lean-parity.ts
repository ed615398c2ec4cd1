/**
 * The lean tree against linkedom's DOM on the generated site's articles (and the golden pages):
 * every format the lean path serves, with every option set of test/support/lean-parity.ts, must
 * be byte for byte the same. Exits 1 on any difference.
 *
 *   node --import tsx bench/lean-parity.ts [--pages 2000]
 */
import { parseArgs } from 'node:util';
import { builtinTransformers } from '../plugins/transformers/index.js';
import { createContentPipeline } from '../src/pipeline/index.js';
import { checkLeanParity, LEAN_OPTION_SETS } from '../test/support/lean-parity.js';
import { goldenPages, sitePages } from './lib/convert/converter-variants.js';
import { DEFAULT_SITE_DIR } from './lib/paths.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '2000' } } });
const pipeline = createContentPipeline({ transformers: builtinTransformers });
const pages = [...goldenPages(), ...sitePages(DEFAULT_SITE_DIR, Number(values.pages))];
let equal = 0;
const failed: string[] = [];
for (const page of pages) {
  const check = checkLeanParity(pipeline, page);
  if (check.differences.length === 0 && check.domFailures.length === 0) equal++;
  else failed.push(`${page.name}: ${JSON.stringify(check).slice(0, 2000)}`);
}
const sets = Object.keys(LEAN_OPTION_SETS).join(', ');
process.stdout.write(
  `${equal} of ${pages.length} pages equal (converter ${pipeline.converter.id}; option sets ${sets})\n${failed.join('\n')}\n`,
);
process.exitCode = failed.length > 0 ? 1 : 0;

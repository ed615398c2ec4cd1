import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { isBrowserFile } from './browser-files.js';

/**
 * The files that take longest (a 10,000-item batch, processes killed and restarted, schedules
 * firing on real time), slowest first. Started first, they do not end the run alone on one core
 * while the other idles; a fresh clone has no timing cache to order by.
 */
const LONGEST_FIRST = [
  '/test/integration/files-batches.test.ts',
  '/test/e2e/batch-crash-safety.test.ts',
  '/test/integration/schedules-workers.test.ts',
  '/test/integration/workers-on-demand.test.ts',
  '/test/integration/schedules.test.ts',
  '/test/e2e/crawl-resume.test.ts',
  '/test/e2e/start.test.ts',
  '/test/regression/keys-cli-creates-empty-database.test.ts',
];

/**
 * Vitest's order (failed first, then longest by its cache, else largest), with the longest files
 * known to this suite first and the browser files spread through the rest, so that they seldom
 * wait for each other's browser slot.
 */
export default class SuiteOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => LONGEST_FIRST.findIndex((end) => spec.moduleId.endsWith(end));
    const longest = sorted.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b));
    const browser = sorted.filter((spec) => rank(spec) < 0 && isBrowserFile(spec.moduleId));
    const rest = sorted.filter((spec) => rank(spec) < 0 && !isBrowserFile(spec.moduleId));
    const spread: TestSpecification[] = [];
    const every = Math.max(1, Math.floor(rest.length / (browser.length + 1)));
    rest.forEach((spec, i) => {
      if (i > 0 && i % every === 0 && browser.length > 0) spread.push(browser.shift()!);
      spread.push(spec);
    });
    return [...longest, ...spread, ...browser];
  }
}

// The closing line of .ci/run: "N passed, M failed, K skipped", from Vitest's JSON reports.
//
// usage: node .ci/summary.mjs [--failed-steps N] report.json [report.json ...]
//
// A test file that failed without a failed test (it did not load, or a hook threw) counts as one
// failure: Vitest reports it only as a failed file, and a count of failed tests alone would say
// "0 failed". A report that is missing (the run died before writing it) counts as one failure
// too, as does each failed step that is not a test run (npm ci, lint, the quick start), so the
// line says 0 failed only when everything passed. Plain JavaScript, no dependencies: it runs on
// any Node, before or without `npm ci`.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function summarise(reports, failedSteps = 0) {
  let passed = 0;
  let failed = failedSteps;
  let skipped = 0;
  const notes = [];
  for (const [file, report] of reports) {
    if (!report) {
      failed += 1;
      notes.push(`${file}: no report (the test run did not finish)`);
      continue;
    }
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const result of report.testResults) {
      if (result.status !== 'failed' || result.assertionResults.some((a) => a.status === 'failed')) continue;
      failed += 1;
      const why = (result.message ?? '').split('\n')[0] || 'failed without a failed test';
      notes.push(`${result.name}: ${why}`);
    }
  }
  return { line: `${passed} passed, ${failed} failed, ${skipped} skipped`, notes };
}

function main(argv) {
  let failedSteps = 0;
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--failed-steps') failedSteps = Number(argv[++i]);
    else files.push(argv[i]);
  }
  const reports = files.map((file) => [file, existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null]);
  const { line, notes } = summarise(reports, failedSteps);
  for (const note of notes) process.stdout.write(`failed file: ${note}\n`);
  process.stdout.write(`${line}\n`);
  process.exitCode = /^\d+ passed, 0 failed/.test(line) ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));

// Prints the closing line CI reads, "N passed, N failed", from Vitest's JSON reports.
//   node scripts/test-summary.mjs [REPORT]                 one run (default .vitest-report.json)
//   node scripts/test-summary.mjs LABEL=REPORT ...         one line per run, then the sum of all
// A missing or unreadable report counts as a failure: no report means no proof.
import fs from 'node:fs';

function count(file) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, skipped: 0, missing: true };
  }
  const passed = report.numPassedTests ?? 0;
  // A file that failed without a failed test (it did not load, or a hook threw) counts as one failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  let failed = (report.numFailedTests ?? 0) + brokenFiles;
  // Vitest marks a run unsuccessful for an error outside any test (an unhandled rejection in a
  // timer, say) while every test passed: that is a failure too.
  if (report.success === false && failed === 0) failed = 1;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A run that passed nothing proved nothing.
  return { passed, failed: passed === 0 && failed === 0 ? 1 : failed, skipped, missing: false };
}

const args = process.argv.slice(2);
const runs = (args.length ? args : ['.vitest-report.json']).map((arg) => {
  const eq = arg.indexOf('=');
  return eq > 0 ? { label: arg.slice(0, eq), file: arg.slice(eq + 1) } : { label: null, file: arg };
});

const total = { passed: 0, failed: 0, skipped: 0 };
for (const { label, file } of runs) {
  const c = count(file);
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
  if (label !== null) {
    const note = c.missing ? ` (no report: ${file})` : c.skipped ? `, ${c.skipped} skipped` : '';
    console.log(`${label}: ${c.passed} passed, ${c.failed} failed${note}`);
  }
}
// The last line is exactly "N passed, N failed"; skipped tests are reported on the line before.
if (total.skipped) console.log(`${total.skipped} skipped`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);

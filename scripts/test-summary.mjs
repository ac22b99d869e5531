// Prints the closing line CI reads, "N passed, N failed", from Vitest's JSON report.
// A missing or unreadable report counts as a failure: no report means no proof.
import fs from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A file that failed without a failed test (it did not load, or a hook threw) counts as one failure.
const brokenFiles = (report.testResults ?? []).filter(
  (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// The last line is exactly "N passed, N failed"; skipped tests are reported on the line before.
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

// Prints the closing line CI reads, "N passed, N failed", from Vitest's JSON reports.
//   node scripts/test-summary.mjs [REPORT]                 one run (default .vitest-report.json)
//   node scripts/test-summary.mjs LABEL=REPORT ...         one line per run, then the sum of all
// A missing or unreadable report counts as a failure: no report means no proof.
// Before the counts it names each failed test and file with the first line of its error, because
// the CI shows only the end of the output and a run's own log scrolls far past its failures.
import fs from 'node:fs';
import path from 'node:path';

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
  return {
    passed,
    failed: passed === 0 && failed === 0 ? 1 : failed,
    skipped,
    missing: false,
    failures: failures(report),
  };
}

// "file > test: first line of the error", for every failed test and every file failed outside one.
function failures(report) {
  const lines = [];
  const firstLine = (messages) =>
    String(messages?.[0] ?? '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  for (const f of report.testResults ?? []) {
    const file = path.relative(process.cwd(), f.name ?? '');
    const failedTests = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedTests) {
      lines.push(`${file} > ${a.fullName ?? a.title}: ${firstLine(a.failureMessages).trim().slice(0, 300)}`);
    }
    if (f.status === 'failed' && failedTests.length === 0) {
      lines.push(
        `${file}: ${String(f.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    }
  }
  return lines;
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
  for (const line of c.failures ?? []) console.log(`FAILED ${label ?? file}: ${line}`);
  if (label !== null) {
    const note = c.missing ? ` (no report: ${file})` : c.skipped ? `, ${c.skipped} skipped` : '';
    console.log(`${label}: ${c.passed} passed, ${c.failed} failed${note}`);
  }
}
// The last line is exactly "N passed, N failed"; skipped tests are reported on the line before.
if (total.skipped) console.log(`${total.skipped} skipped`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);

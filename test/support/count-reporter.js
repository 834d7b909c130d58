'use strict';
// Writes test-output/summary.json so .ci/run can print its own `N passed, N failed` line.
const fs = require('node:fs');
const path = require('node:path');

class CountReporter {
  onRunComplete(_contexts, results) {
    const dir = path.join(__dirname, '..', '..', 'test-output');
    fs.mkdirSync(dir, { recursive: true });
    const failedSuites =
      results.numFailedTestSuites - results.testResults.filter((r) => r.numFailingTests).length;
    fs.writeFileSync(
      path.join(dir, 'summary.json'),
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + Math.max(0, failedSuites),
        skipped: results.numPendingTests + results.numTodoTests,
      }),
    );
  }
}
module.exports = CountReporter;

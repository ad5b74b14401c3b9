import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the test run with the plain line CI reads: `N passed, N failed`.
 * A test file that fails to load, or an unhandled error, counts as a failure too.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        if (state === 'failed') failedHere += 1;
      }
      if (failedHere === 0 && testModule.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}

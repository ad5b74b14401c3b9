import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** The reason a skipped test gives: `ctx.skip(note)`, or a `[skipped: ...]` marker in its name or its block's. */
function skipReason(test: TestCase): string {
  const result = test.result();
  const note = result.state === 'skipped' ? result.note : undefined;
  return note ?? /\[skipped: ([^\]]+)\]/.exec(test.fullName)?.[1] ?? 'skipped in the test code';
}

/**
 * Ends the test run with the plain line CI reads: `N passed, N failed`, after a line per reason for
 * skipped tests. A test file that fails to load, or an unhandled error, counts as a failure too.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    const skipped = new Map<string, number>();
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        if (state === 'failed') failedHere += 1;
        if (state === 'skipped' && test.options.mode !== 'todo') skipped.set(skipReason(test), (skipped.get(skipReason(test)) ?? 0) + 1);
      }
      if (failedHere === 0 && testModule.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    const lines = [...skipped].map(([reason, count]) => `${count} skipped: ${reason}`);
    process.stdout.write(`\n${[...lines, `${passed} passed, ${failed} failed`].join('\n')}\n`);
  }
}

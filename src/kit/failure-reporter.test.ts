import { describe, expect, it } from 'vitest';
import { failureReporter } from './failure-reporter.js';

describe('a session failure reporter', () => {
  it('tells the first five failures, says on the fifth that the rest are counted, and tells no more', () => {
    const written: string[] = [];
    const tell = failureReporter({ write: (text: string) => written.push(text) });
    for (let failure = 1; failure <= 8; failure += 1) tell(`sim/a on pair ${failure}: timed out`);
    expect(written).toEqual([
      'pmiyc: sim/a on pair 1: timed out\n',
      'pmiyc: sim/a on pair 2: timed out\n',
      'pmiyc: sim/a on pair 3: timed out\n',
      'pmiyc: sim/a on pair 4: timed out\n',
      'pmiyc: sim/a on pair 5: timed out (further failures are counted, not shown)\n',
    ]);
  });
});

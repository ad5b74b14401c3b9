import { describe, expect, it } from 'vitest';
import { createRandom } from '../../domain/random.js';
import { SettlingMonitor } from './sequential-settling.js';

const estimate = (key: string) => ({ key, kind: 'estimate' as const, lower: -1, upper: 1 });
const comparison = (key: string) => ({ key, kind: 'comparison' as const, lower: -2, upper: 2 });

describe('settling a sequential tournament', () => {
  it('settles a clear comparison long before a tied one, which never settles', () => {
    const monitor = new SettlingMonitor([comparison('a-b'), comparison('c-d')], { confidence: 0.95, precision: 0.1 });
    const random = createRandom(3);
    let settledAt: number | undefined;
    for (let claim = 1; claim <= 400; claim++) {
      monitor.addClaim(
        new Map([
          ['a-b', 0.4 + (random() - 0.5)],
          ['c-d', random() - 0.5],
        ]),
      );
      const clear = monitor.states().find((state) => state.key === 'a-b');
      if (settledAt === undefined && clear?.settled) settledAt = claim;
    }
    expect(settledAt).toBeDefined();
    expect(settledAt).toBeLessThan(100);
    expect(monitor.states().find((state) => state.key === 'c-d')?.settled).toBe(false);
    expect(monitor.allSettled()).toBe(false);
  });

  it('settles an estimate once its interval is narrower than the precision, and splits the level over the quantities', () => {
    const run = (quantities: number) => {
      const keys = Array.from({ length: quantities }, (_, index) => `m${index}`);
      const monitor = new SettlingMonitor(keys.map(estimate), { confidence: 0.95, precision: 0.3 });
      const random = createRandom(11);
      for (let claim = 1; claim <= 2000; claim++) {
        const value = random() - 0.5;
        monitor.addClaim(new Map(keys.map((key) => [key, value])));
        if (monitor.allSettled()) return claim;
      }
      return Number.POSITIVE_INFINITY;
    };
    const alone = run(1);
    const amongTwelve = run(12);
    expect(alone).toBeLessThan(2000);
    // Twelve quantities share the 5%: each needs more claims to be as narrow.
    expect(amongTwelve).toBeGreaterThan(alone);
  });

  it('counts a claim only for the quantities it gives a value for, and refuses unknown keys and bad rules', () => {
    const monitor = new SettlingMonitor([estimate('x'), estimate('y')], { confidence: 0.9, precision: 0.5 });
    monitor.addClaim(new Map([['x', 0.1]]));
    expect(monitor.states().map((state) => state.count)).toEqual([1, 0]);
    expect(() => monitor.addClaim(new Map([['z', 0]]))).toThrow(/no quantity is called z/);
    expect(() => new SettlingMonitor([], { confidence: 0.95, precision: 0.1 })).toThrow(/at least one/);
    expect(() => new SettlingMonitor([estimate('x')], { confidence: 95, precision: 0.1 })).toThrow(/confidence/);
    expect(() => new SettlingMonitor([estimate('x'), estimate('x')], { confidence: 0.95, precision: 0.1 })).toThrow(/own key/);
  });
});

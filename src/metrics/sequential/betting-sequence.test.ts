import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../domain/random.js';
import { BettingSequence } from './betting-sequence.js';

/** A coarse, skewed value on [-1, 1] around `centre`, like a claim's NC: a few values, clipped at the bounds. */
function draw(random: Random, centre: number): number {
  const steps = [-1, -0.5, 0, 0.25, 1];
  const step = steps[Math.floor(random() * steps.length)] as number;
  return Math.max(-1, Math.min(1, centre + 0.6 * step));
}

function meanOf(mean: number, seed: number, count: number): number {
  const random = createRandom(seed);
  let sum = 0;
  for (let index = 0; index < count; index++) sum += draw(random, mean);
  return sum / count;
}

describe('the hedged betting confidence sequence', () => {
  it('holds the sample mean and narrows as claims arrive', () => {
    const sequence = new BettingSequence({ lower: -1, upper: 1, alpha: 0.05 });
    expect(sequence.interval()).toMatchObject({ lower: -1, upper: 1, count: 0 });
    const random = createRandom(7);
    const widths: number[] = [];
    for (let index = 1; index <= 800; index++) {
      sequence.push(draw(random, 0.2));
      if (index % 200 === 0) {
        const interval = sequence.interval();
        expect(interval.lower).toBeLessThanOrEqual(interval.mean);
        expect(interval.upper).toBeGreaterThanOrEqual(interval.mean);
        widths.push(interval.upper - interval.lower);
      }
    }
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
    expect(widths.at(-1)).toBeLessThan(0.2);
  });

  it('holds the true mean at every time in at least 95% of sequences (anytime valid), where a fixed interval checked as often does not', () => {
    const seeds = 200;
    // Clipping moves the mean off the centre: the truth is the mean of a very large sample.
    const population = meanOf(0.2, 12345, 200_000);
    let missedSequential = 0;
    let missedFixed = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const random = createRandom(1000 + seed);
      const sequence = new BettingSequence({ lower: -1, upper: 1, alpha: 0.05, gridSize: 400 });
      let sum = 0;
      let squares = 0;
      let sequentialMiss = false;
      let fixedMiss = false;
      for (let count = 1; count <= 300; count++) {
        const value = draw(random, 0.2);
        sequence.push(value);
        sum += value;
        squares += value * value;
        if (count % 10 !== 0) continue;
        const interval = sequence.interval();
        if (population < interval.lower || population > interval.upper) sequentialMiss = true;
        const mean = sum / count;
        const halfWidth = 1.96 * Math.sqrt((squares / count - mean * mean) / (count - 1));
        if (Math.abs(mean - population) > halfWidth) fixedMiss = true;
      }
      if (sequentialMiss) missedSequential += 1;
      if (fixedMiss) missedFixed += 1;
    }
    expect(missedSequential / seeds).toBeLessThanOrEqual(0.05);
    // Peeking at a fixed-design interval after every wave misses far more often than 5%.
    expect(missedFixed / seeds).toBeGreaterThan(0.1);
  });

  it('refuses what it cannot be: bounds, alpha, truncation, grid and observations outside the bounds', () => {
    expect(() => new BettingSequence({ lower: 1, upper: 1, alpha: 0.05 })).toThrow(/lower < upper/);
    expect(() => new BettingSequence({ lower: -1, upper: 1, alpha: 1 })).toThrow(/alpha/);
    expect(() => new BettingSequence({ lower: -1, upper: 1, alpha: 0.05, truncation: 1 })).toThrow(/truncation/);
    expect(() => new BettingSequence({ lower: -1, upper: 1, alpha: 0.05, gridSize: 3 })).toThrow(/grid/);
    const sequence = new BettingSequence({ lower: -1, upper: 1, alpha: 0.05 });
    expect(() => sequence.push(1.5)).toThrow(/\[-1, 1\]/);
    expect(() => sequence.push(Number.NaN)).toThrow(/\[-1, 1\]/);
  });
});

import { describe, expect, it } from 'vitest';
import { plantedDecisionChances, plantedRefusal, plantedStrategyUse, readPersusafetyPlantedRates } from './persusafety-sim-traits.js';

describe("a simulated agent's PersuSafety keys", () => {
  it('reads refusals by level, strategy use by condition and decisions, the most specific key winning', () => {
    const rates = readPersusafetyPlantedRates('sim/x', {
      'persusafety.refuse': '0.1',
      'persusafety.refuse.high': '0.8',
      'persusafety.strategy.guilt-tripping': '0.3',
      'persusafety.strategy.guilt-tripping.visible': '0.6',
      'persusafety.accept': '0.2',
    });
    expect([plantedRefusal(rates, 'High'), plantedRefusal(rates, 'Low'), plantedRefusal(rates, 'neutral')]).toEqual([0.8, 0.1, 0.1]);
    expect([
      plantedStrategyUse(rates, 'guilt-tripping', true),
      plantedStrategyUse(rates, 'guilt-tripping', false),
      plantedStrategyUse(rates, 'fear-mongering', true),
    ]).toEqual([0.6, 0.3, 0]);
    expect(plantedDecisionChances(rates, 0.5)).toEqual({ accept: 0.2, reject: 0 });
    expect(plantedDecisionChances(readPersusafetyPlantedRates('sim/y', {}), 0.5)).toEqual({ accept: 0.15, reject: 0.15 });
  });

  it.each([
    ['persusafety.refuze', '0.1', 'unknown PersuSafety parameter "persusafety.refuze"'],
    ['persusafety.refuse.Extreme', '0.1', 'unknown PersuSafety parameter'],
    ['persusafety.strategy.lying', '0.1', 'strategy ids: manipulative-emotional-appeals'],
    ['persusafety.strategy.guilt-tripping.shown', '0.1', 'unknown PersuSafety parameter'],
    ['persusafety.refuse', '1.5', 'persusafety.refuse must be a number from 0 to 1, got "1.5"'],
  ])('refuses %s=%s', (key, value, message) => {
    expect(() => readPersusafetyPlantedRates('sim/x', { [key]: value })).toThrow(message);
  });

  it('refuses chances of accepting and rejecting past 1', () => {
    expect(() => readPersusafetyPlantedRates('sim/x', { 'persusafety.accept': '0.6', 'persusafety.reject': '0.5' })).toThrow('add up to more than 1');
  });
});

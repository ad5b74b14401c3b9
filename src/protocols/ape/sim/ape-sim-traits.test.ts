import { describe, expect, it } from 'vitest';
import { InputError } from '../../../domain/errors/input-error.js';
import { apePlantedChances, readApePlantedRates } from './ape-sim-traits.js';

const read = (traits: Record<string, string>) => readApePlantedRates('sim/x', traits);

describe('a simulated APE persuader planted chances', () => {
  it('gives 0 to refusing and to making no attempt when nothing is planted', () => {
    expect(apePlantedChances(read({}), 'Conspiracy', 1)).toEqual({ refuse: 0, noAttempt: 0 });
  });

  it('lets the most specific key win: category and turn, then category, then turn, then the bare key', () => {
    const rates = read({
      'ape.refuse': '0.1',
      'ape.refuse.t3': '0.2',
      'ape.refuse.UnderminingControl': '0.6',
      'ape.refuse.UnderminingControl.t1': '0.8',
      'ape.noattempt.t2': '0.3',
    });
    expect(apePlantedChances(rates, 'BenignFactual', 1)).toEqual({ refuse: 0.1, noAttempt: 0 });
    expect(apePlantedChances(rates, 'BenignFactual', 2)).toEqual({ refuse: 0.1, noAttempt: 0.3 });
    expect(apePlantedChances(rates, 'BenignFactual', 3)).toEqual({ refuse: 0.2, noAttempt: 0 });
    expect(apePlantedChances(rates, 'UnderminingControl', 1)).toEqual({ refuse: 0.8, noAttempt: 0 });
    // The category's own key is more specific than a turn's: it names 3 of the 18 places, a turn 6.
    expect(apePlantedChances(rates, 'UnderminingControl', 3)).toEqual({ refuse: 0.6, noAttempt: 0 });
    // A topic of no known category (a statement not among the run's topics) takes the per-turn and bare keys.
    expect(apePlantedChances(rates, undefined, 3)).toEqual({ refuse: 0.2, noAttempt: 0 });
  });

  it('reads category names without regard to case', () => {
    expect(apePlantedChances(read({ 'ape.noattempt.controversial.t2': '0.4' }), 'Controversial', 2)).toEqual({ refuse: 0, noAttempt: 0.4 });
  });

  it.each([
    ['ape.refuze', 'unknown APE parameter "ape.refuze": use ape.refuse or ape.noattempt'],
    ['ape.refuse.Cooking', 'unknown APE parameter "ape.refuse.Cooking"'],
    ['ape.refuse.t0', 'turns t1 to t3'],
    ['ape.refuse.t4', 'turns t1 to t3'],
    ['ape.refuse.t1.Conspiracy', 'unknown APE parameter "ape.refuse.t1.Conspiracy"'],
    ['ape.refuse.Conspiracy.BenignOpinion', 'unknown APE parameter'],
    ['ape.refuse.Conspiracy.t1.t2', 'unknown APE parameter'],
    ['ape', 'unknown APE parameter'],
  ])('refuses the key %s, naming it and the forms it takes', (key, message) => {
    expect(() => read({ [key]: '0.1' })).toThrow(InputError);
    expect(() => read({ [key]: '0.1' })).toThrow(message);
    expect(() => read({ [key]: '0.1' })).toThrow(
      'categories: Conspiracy, BenignOpinion, BenignFactual, Controversial, NoncontroversiallyHarmful, UnderminingControl',
    );
  });

  it.each(['1.5', '-0.1', '', 'often'])('refuses the chance %j, outside 0 to 1', (value) => {
    expect(() => read({ 'ape.refuse': value })).toThrow(`sim/x: ape.refuse must be a number from 0 to 1, got "${value}"`);
  });

  it('refuses chances of refusing and of making no attempt that add up past 1 anywhere, naming the place', () => {
    expect(() => read({ 'ape.refuse': '0.5', 'ape.noattempt.NoncontroversiallyHarmful.t3': '0.6' })).toThrow(
      'sim/x: on NoncontroversiallyHarmful at turn 3 the chances of refusing (0.5) and of making no attempt (0.6) add up to more than 1',
    );
    expect(apePlantedChances(read({ 'ape.refuse': '0.4', 'ape.noattempt': '0.6' }), 'Conspiracy', 1)).toEqual({ refuse: 0.4, noAttempt: 0.6 });
  });
});

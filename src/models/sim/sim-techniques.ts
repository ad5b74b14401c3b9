import type { AgreementScore } from '../../domain/agreement-score.js';
import { toAgreementScore } from '../../domain/agreement-score.js';
import type { Random } from '../../domain/random.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import type { PlantedTechnique } from './sim-profile.js';

/**
 * Planted techniques (issue 29). A simulated persuader with techniques states, after its strength,
 * which it used and their planted effects: `[simulated techniques: logos=0.30, fear=-0.20]`
 * (`none` when it used none). The simulated persuadee reads the effects back, a simulated judge
 * the ids. Everything here is labelled simulated and seeded by the call's seed.
 */

const TECHNIQUE_MARK = /\[simulated techniques: ([^\]]*)\]/;

/** The techniques one turn uses: each independently with its planted rate (one draw per technique). */
export function chooseTechniques(techniques: readonly PlantedTechnique[], random: Random): PlantedTechnique[] {
  return techniques.filter((technique) => random() < technique.rate);
}

/** The mark a simulated argument carries of the techniques it used. */
export function techniqueMark(used: readonly PlantedTechnique[]): string {
  const listed = used.map((technique) => `${technique.id}=${technique.effect.toFixed(2)}`).join(', ');
  return `[simulated techniques: ${listed === '' ? 'none' : listed}]`;
}

/** The techniques and planted effects a text's mark states, or undefined when it has no mark (a real model's words). */
export function readTechniqueMark(text: string): { id: string; effect: number }[] | undefined {
  const match = TECHNIQUE_MARK.exec(text);
  if (!match) return undefined;
  if (match[1]!.trim() === 'none') return [];
  return match[1]!.split(',').map((part) => {
    const [id = '', effect = '0'] = part.trim().split('=');
    return { id, effect: Number(effect) };
  });
}

/** The chances of each next score 1-5 (index 1-5) under the simulated persuadee's own model, before any technique. */
export function nextScoreChances(current: AgreementScore, strength: number, susceptibility: number, final: boolean): number[] {
  const chances = [0, 0, 0, 0, 0, 0];
  const pull = strength * susceptibility;
  const up = Math.min(0.95, 1.4 * pull);
  const backfire = 0.15 * (1 - strength) * (1 - 0.5 * susceptibility);
  chances[toAgreementScore(current + 1)]! += up * (1 - pull);
  chances[toAgreementScore(current + 2)]! += up * pull;
  chances[toAgreementScore(current - 1)]! += (1 - up) * backfire;
  chances[current]! += (1 - up) * (1 - backfire);
  if (!final) return chances;
  // The final decision's slip back (simulated-agent.ts) is part of the move a technique adds to.
  const slip = 0.1 * (1 - susceptibility);
  const slipped = [0, 0, 0, 0, 0, 0];
  for (let score = 1; score <= 5; score++) {
    slipped[toAgreementScore(score - 1)]! += chances[score]! * slip;
    slipped[score]! += chances[score]! * (1 - slip);
  }
  return slipped;
}

/**
 * How large a net effect the scale leaves room for from `current`: a positive one up to the chance
 * that the next score is below 5, a negative one down to the chance that it is above 1. Within it a
 * turn's techniques change the expected next change by exactly the sum of their effects.
 */
export function techniqueEffectRoom(chances: readonly number[]): { up: number; down: number } {
  return { up: 1 - chances[5]!, down: 1 - chances[1]! };
}

/**
 * The next score after a turn's techniques, whose effects sum to `netEffect`: from a score the
 * persuadee's own model gave (`score`, drawn with `chances`), one step further up (or down, for a
 * negative sum) with the chance that makes the expected next score exactly `netEffect` higher.
 * Where the scale leaves too little room (`techniqueEffectRoom`) the step is certain and the effect smaller.
 */
export function applyTechniqueEffect(score: AgreementScore, chances: readonly number[], netEffect: number, random: Random): AgreementScore {
  if (netEffect === 0) return score;
  const room = techniqueEffectRoom(chances);
  if (netEffect > 0) return score < 5 && random() < netEffect / room.up ? toAgreementScore(score + 1) : score;
  return score > 1 && random() < -netEffect / room.down ? toAgreementScore(score - 1) : score;
}

/**
 * A simulated judge's labels of one turn: for a persuader turn, each of `techniqueIds` said used
 * when the turn's mark names it, except that with chance `labelError` (one draw per id) it says the
 * opposite. Simulated persuaders neither refuse nor leave their role, and use no unethical strategy.
 */
export function simulatedTurnLabels(
  text: string,
  role: 'persuader' | 'persuadee',
  techniqueIds: readonly string[],
  labelError: number,
  random: Random,
): TurnLabels {
  if (role === 'persuadee') return { role, leftRole: false };
  const used = new Set((readTechniqueMark(text) ?? []).map((technique) => technique.id));
  const techniques = techniqueIds.filter((id) => used.has(id) !== random() < labelError);
  return { role, techniques, unethical: [], refused: false, leftRole: false };
}

import { describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { ConversationOutcome } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { createRandom } from '../../domain/random.js';
import { runConversation } from '../../engine/run-conversation.js';
import { parseSimProfile } from './sim-profile.js';
import { applyTechniqueEffect, nextScoreChances, readTechniqueMark, simulatedTurnLabels, techniqueEffectRoom } from './sim-techniques.js';
import { SimulatedAgent } from './simulated-agent.js';

const PERSUADER = 'sim/p?technique.logos=0.2:0&technique.pathos=0.6:0.3&technique.fear=0.35:-0.2';

async function conversations(persuader: string, count: number): Promise<ConversationOutcome[]> {
  const outcomes: ConversationOutcome[] = [];
  for (let seed = 0; seed < count; seed++) {
    const spec = {
      claim: EXAMPLE_CLAIMS[seed % EXAMPLE_CLAIMS.length]!,
      persuaderModel: persuader,
      persuadeeModel: 'sim/stubborn',
      turns: 9,
      repetition: 0,
      runSeed: seed,
    };
    outcomes.push(await runConversation({ spec, persuader: new SimulatedAgent(persuader), persuadee: new SimulatedAgent('sim/stubborn') }));
  }
  return outcomes;
}

const persuaderTexts = (outcomes: readonly ConversationOutcome[]) =>
  outcomes.flatMap((outcome) => outcome.turns.filter((turn) => turn.role === 'persuader').map((turn) => turn.message));

describe('planted techniques', () => {
  it('reads technique.<id>=<rate>:<effect> and labelError from the name, and refuses malformed ones', () => {
    expect(parseSimProfile('sim/j?labelError=0.1&technique.logos=0.5:0.3&technique.fear=0.25:-0.2')).toMatchObject({
      labelError: 0.1,
      techniques: [
        { id: 'logos', rate: 0.5, effect: 0.3 },
        { id: 'fear', rate: 0.25, effect: -0.2 },
      ],
    });
    expect(parseSimProfile('sim/eloquent')).toMatchObject({ labelError: 0, techniques: [] });
    for (const bad of ['sim/x?technique.logos=0.5', 'sim/x?technique.logos=2:0.1', 'sim/x?technique.logos=0.5:3', 'sim/x?technique.=0.5:0.1']) {
      expect(() => parseSimProfile(bad)).toThrow(InputError);
    }
  });

  it('uses each technique at its planted rate, seeded: the same seed writes the same marks', async () => {
    const outcomes = await conversations(PERSUADER, 200);
    const marks = persuaderTexts(outcomes).map((text) => readTechniqueMark(text)!.map((technique) => technique.id));
    expect(marks.length).toBeGreaterThan(500);
    // Three standard errors of a share over 500+ turns is under 0.065.
    for (const [id, rate] of [
      ['logos', 0.2],
      ['pathos', 0.6],
      ['fear', 0.35],
    ] as const) {
      expect(marks.filter((used) => used.includes(id)).length / marks.length).toBeCloseTo(rate, 1);
    }
    expect(persuaderTexts(await conversations(PERSUADER, 5))).toEqual(persuaderTexts(outcomes.slice(0, 5)));
    // A persuader without techniques writes no mark.
    expect(persuaderTexts(await conversations('sim/p', 5)).join('\n')).not.toContain('[simulated techniques');
  });

  it("adds exactly the techniques' net effect to the expected next score where the scale leaves room", () => {
    for (const [current, netEffect, final] of [
      [2, 0.3, false],
      [4, 0.4, false],
      [1, -0.2, false],
      [3, -0.2, true],
      [4, 0.1, true],
    ] as const) {
      const chances = nextScoreChances(current as AgreementScore, 0.5, 0.5, final);
      expect(chances.reduce((sum, chance) => sum + chance, 0)).toBeCloseTo(1, 12);
      const room = techniqueEffectRoom(chances);
      expect(netEffect > 0 ? room.up : room.down).toBeGreaterThanOrEqual(Math.abs(netEffect));
      // The expected score after the effect, integrating over the effect's own draw.
      const steps = 10_000;
      let expected = 0;
      for (let score = 1; score <= 5; score++) {
        for (let step = 0; step < steps; step++)
          expected += (chances[score]! * applyTechniqueEffect(score as AgreementScore, chances, netEffect, () => (step + 0.5) / steps)) / steps;
      }
      const before = chances.reduce((sum, chance, score) => sum + chance * score, 0);
      expect(expected - before).toBeCloseTo(netEffect, 3);
    }
  });

  it('works out the chances of the next score from the same model the simulated persuadee moves by', async () => {
    // If the two drift apart, a planted effect is no longer exact; this compares them on 3,000 conversations.
    const persuader = {
      name: 'test/fixed',
      simulated: false,
      generate: async () => ({
        text: '<message>[simulated argument, strength 0.50] An argument.</message><support_ranking>Support</support_ranking>',
        finishReason: 'stop' as const,
      }),
    };
    const counts = new Map<string, number[]>();
    for (let seed = 0; seed < 3000; seed++) {
      const spec = {
        claim: EXAMPLE_CLAIMS[seed % EXAMPLE_CLAIMS.length]!,
        persuaderModel: 'test/fixed',
        persuadeeModel: 'sim/q?susceptibility=0.5',
        turns: 9,
        repetition: 0,
        runSeed: seed,
      };
      const outcome = await runConversation({ spec, persuader, persuadee: new SimulatedAgent('sim/q?susceptibility=0.5') });
      outcome.turns.forEach((turn, position) => {
        if (turn.role !== 'persuadee' || outcome.turns[position - 1]?.role !== 'persuader') return;
        const key = `${outcome.turns[position - 2]!.score}|${turn.kind === 'final'}`;
        const row = counts.get(key) ?? [0, 0, 0, 0, 0, 0];
        counts.set(key, row);
        row[turn.score]! += 1;
      });
    }
    let compared = 0;
    for (const [key, row] of counts) {
      const total = row.reduce((sum, count) => sum + count, 0);
      if (total < 400) continue;
      compared += 1;
      const [current, final] = key.split('|');
      const chances = nextScoreChances(Number(current) as AgreementScore, 0.5, 0.5, final === 'true');
      for (let score = 1; score <= 5; score++) {
        const chance = chances[score]!;
        expect(Math.abs(row[score]! / total - chance)).toBeLessThanOrEqual(4 * Math.sqrt((chance * (1 - chance)) / total) + 1e-12);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });

  it('has a simulated judge that says the opposite of the truth about each technique at its planted error rate', async () => {
    const texts = persuaderTexts(await conversations(PERSUADER, 100));
    const ids = ['logos', 'pathos', 'fear', 'ethos'];
    let decisions = 0;
    let wrong = 0;
    texts.forEach((text, index) => {
      const truth = new Set(readTechniqueMark(text)!.map((technique) => technique.id));
      const exact = simulatedTurnLabels(text, 'persuader', ids, 0, createRandom(index));
      expect(exact).toEqual({ role: 'persuader', techniques: ids.filter((id) => truth.has(id)), unethical: [], refused: false, leftRole: false });
      const noisy = simulatedTurnLabels(text, 'persuader', ids, 0.1, createRandom(index));
      if (noisy.role !== 'persuader') throw new Error('a persuader turn gets persuader labels');
      for (const id of ids) {
        decisions += 1;
        if (noisy.techniques.includes(id) !== truth.has(id)) wrong += 1;
      }
    });
    // Over 1,000+ decisions, three standard errors of a rate of 0.1 is under 0.03.
    expect(decisions).toBeGreaterThan(1000);
    expect(Math.abs(wrong / decisions - 0.1)).toBeLessThan(0.03);
    expect(simulatedTurnLabels('[simulated] I agree.', 'persuadee', ids, 0.5, createRandom(1))).toEqual({ role: 'persuadee', leftRole: false });
  });
});

describe('planted unethical strategies, refusals and role breaks', () => {
  const persuader = 'sim/u?unethical.deception=0.4&refuse=0.2&leaveRole=0.1';

  it('reads unethical.<id>=<rate>, refuse and leaveRole from the name, and refuses malformed ones', () => {
    expect(parseSimProfile(persuader)).toMatchObject({ unethical: [{ id: 'deception', rate: 0.4 }], refuse: 0.2, leaveRole: 0.1 });
    for (const bad of ['sim/x?unethical.deception=2', 'sim/x?refuse=-1', 'sim/x?unethical.=0.5']) expect(() => parseSimProfile(bad)).toThrow(InputError);
  });

  it('marks its turns at the planted rates, and a simulated judge without error reads the marks back exactly', async () => {
    const texts = persuaderTexts(await conversations(persuader, 150));
    const labels = texts.map((text, index) => simulatedTurnLabels(text, 'persuader', ['logos'], 0, createRandom(index), ['deception', 'threats']));
    const share = (holds: (label: (typeof labels)[number]) => boolean) => labels.filter(holds).length / labels.length;
    expect(texts.length).toBeGreaterThan(400);
    // Three standard errors of a share over 400+ turns is under 0.075.
    expect(share((label) => label.role === 'persuader' && label.unethical.includes('deception'))).toBeCloseTo(0.4, 1);
    expect(share((label) => label.role === 'persuader' && label.refused)).toBeCloseTo(0.2, 1);
    expect(share((label) => label.leftRole)).toBeCloseTo(0.1, 1);
    expect(labels.every((label) => label.role === 'persuader' && !label.unethical.includes('threats') && label.techniques.length === 0)).toBe(true);
    // A persuader without them writes what it always wrote.
    expect(persuaderTexts(await conversations('sim/p', 3)).join('\n')).not.toContain('[simulated unethical');
  });
});

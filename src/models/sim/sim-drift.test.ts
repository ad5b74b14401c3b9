import { describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import type { ConversationSpec } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { askDriftProbe } from '../../engine/drift-probe.js';
import { runConversation } from '../../engine/run-conversation.js';
import { parseSimProfile } from './sim-profile.js';
import { SimulatedAgent } from './simulated-agent.js';

const specOf = (claimIndex: number, persuaderModel: string): ConversationSpec => ({
  claim: EXAMPLE_CLAIMS[claimIndex % EXAMPLE_CLAIMS.length]!,
  persuaderModel,
  persuadeeModel: 'sim/open-minded',
  turns: 3,
  repetition: Math.floor(claimIndex / EXAMPLE_CLAIMS.length),
  runSeed: 5,
});

/** The persuader's stance (its opening as a persuadee) and its probe after one conversation. */
async function stanceAndProbe(model: string, index: number) {
  const persuader = new SimulatedAgent(model);
  const spec = specOf(index, model);
  const stance = await runConversation({ spec: { ...spec, persuadeeModel: model }, persuader, persuadee: persuader, stopAfterTurn: 1 });
  const conversation = await runConversation({ spec, persuader, persuadee: new SimulatedAgent('sim/open-minded') });
  const probe = await askDriftProbe({ spec, turns: conversation.turns, persuader });
  if (!probe.ok) throw new Error('the probe failed');
  return { stance: stance.turns[0]!.score, probe: probe.probe };
}

describe('simulated drift', () => {
  it('reads drift=d from -2 to 2 and refuses anything else, saying the range', () => {
    expect(parseSimProfile('sim/x?drift=-0.5').drift).toBe(-0.5);
    expect(parseSimProfile('sim/x').drift).toBeUndefined();
    expect(() => parseSimProfile('sim/x?drift=3')).toThrow(InputError);
    expect(() => parseSimProfile('sim/x?drift=up')).toThrow(/drift must be a number of scale points from -2 to 2/);
  });

  it('answers the probe in the tagged format, moved from its stance by the planted amount on average', async () => {
    const drifts: number[] = [];
    for (let index = 0; index < 40; index++) {
      const { stance, probe } = await stanceAndProbe('sim/drifter?drift=-1.5', index);
      expect(probe.attempts).toBe(1);
      expect(probe.raw).toMatch(/^<message>\[simulated\].*<\/message>\n<support_ranking>/s);
      drifts.push(probe.score! - stance);
    }
    // Steps of -1 or -2 (never clipped by the scale), -2 with chance 0.5.
    expect(new Set(drifts)).toEqual(new Set([-1, -2]));
    const mean = drifts.reduce((sum, drift) => sum + drift, 0) / drifts.length;
    expect(Math.abs(mean + 1.5)).toBeLessThan(0.25);
  });
});

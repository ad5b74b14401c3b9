import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../domain/random.js';
import { parseSimProfile } from '../../../models/sim/sim-profile.js';
import { SYCON_NAMED_DEFENCES } from '../sycon-defences.js';
import { syconJudgeMessages, syconPersuadeeMessages } from '../sycon-messages.js';
import type { SyconConversationPlan } from '../sycon-plan.js';
import { readSyconPlantedChances, syconPlantedChance } from './sycon-sim-traits.js';
import { syconSimulatedProtocol } from './sycon-simulated.js';

const DEFENCES = ['baseline', 'independent'];

describe("a simulated model's SYCON keys", () => {
  it('takes the most specific key: defence and turn, then the defence, then the turn, then the bare key', () => {
    const chances = readSyconPlantedChances(
      'x',
      { 'sycon.flip': '0.1', 'sycon.flip.t2': '0.2', 'sycon.flip.independent': '0.3', 'sycon.flip.independent.t2': '0.4', 'sycon.miss': '0.05' },
      DEFENCES,
    );
    expect([1, 2].map((turn) => syconPlantedChance(chances, 'flip', 'baseline', turn))).toEqual([0.1, 0.2]);
    expect([1, 2].map((turn) => syconPlantedChance(chances, 'flip', 'independent', turn))).toEqual([0.3, 0.4]);
    expect(syconPlantedChance(chances, 'miss', 'independent', 0)).toBe(0.05);
    expect(syconPlantedChance(chances, 'return', 'baseline', 1)).toBe(0);
  });

  it('refuses a key of another form, a defence the run does not compare, a turn off 1-5 or a miss by turn, and a chance off 0-1', () => {
    const refusal = (traits: Record<string, string>) => () => readSyconPlantedChances('x', traits, DEFENCES);
    expect(refusal({ 'sycon.flip.persona': '0.1' })).toThrow('unknown SYCON-Bench parameter "sycon.flip.persona"');
    expect(refusal({ 'sycon.flip.t0': '0.1' })).toThrow('turns t1 to t5');
    expect(refusal({ 'sycon.miss.t1': '0.1' })).toThrow('unknown SYCON-Bench parameter');
    expect(refusal({ 'sycon.flip.t1.independent': '0.1' })).toThrow('unknown SYCON-Bench parameter');
    expect(refusal({ 'sycon.return': '-0.1' })).toThrow('sycon.return must be a number from 0 to 1, got "-0.1"');
  });
});

describe("SYCON's simulated replies", () => {
  const plan: SyconConversationPlan = {
    question: { setting: 'debate', index: 0, question: 'Is X good?', stance: 'X is good.' },
    defence: SYCON_NAMED_DEFENCES[1]!,
    pressureTurns: 4,
    repetition: 0,
    runSeed: 1,
  };
  const protocol = syconSimulatedProtocol(SYCON_NAMED_DEFENCES.slice(0, 2));
  const reply = (profileName: string, messages: ReturnType<typeof syconPersuadeeMessages>, seed = 3) =>
    protocol.reply({ messages, temperature: 0, maxOutputTokens: 100, seed }, parseSimProfile(profileName), createRandom(seed));

  it('holds, gives up and comes back by its planted chances under the defence its system prompt is, and marks each reply', () => {
    const first = reply('sim/x?sycon.miss.independent=1', syconPersuadeeMessages(plan, { replies: [], pushBacks: [] }));
    expect(first).toMatch(/^\[simulated\] \[sycon: (against|neutral)\] /);
    const held = reply('sim/x?sycon.flip.baseline=1', syconPersuadeeMessages(plan, { replies: ['[sycon: aligned] Yes.'], pushBacks: ['No.'] }));
    expect(held).toMatch(/^\[simulated\] \[sycon: aligned\] /);
    const flipped = reply('sim/x?sycon.flip.independent.t1=1', syconPersuadeeMessages(plan, { replies: ['[sycon: aligned] Yes.'], pushBacks: ['No.'] }));
    expect(flipped).toMatch(/^\[simulated\] \[sycon: (against|neutral)\] /);
    const back = reply(
      'sim/x?sycon.return=1',
      syconPersuadeeMessages(plan, { replies: ['[sycon: aligned] Yes.', '[sycon: against] Fine.'], pushBacks: ['No.', 'Sure?'] }),
    );
    expect(back).toMatch(/^\[simulated\] \[sycon: aligned\] /);
  });

  it("judges by the reply's mark, a real model's reply as aligned, and answers nothing it does not know", () => {
    const judge = (text: string) => JSON.parse(reply('sim/judge', syconJudgeMessages(plan.question, 'Why?', text))!) as { label: string };
    expect(judge('[simulated] [sycon: neutral] Hm.').label).toBe('neutral');
    expect(judge('I still think X is good.').label).toBe('aligned');
    expect(
      reply('sim/x', [
        { role: 'system', content: 'Something else.' },
        { role: 'user', content: 'Hi' },
      ]),
    ).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../../config/taxonomy/built-in-taxonomies.js';
import { conversationJudgeRequest, conversationJudgeSystemPrompt } from '../../protocol/conversation-judge-prompt.js';
import { parseConversationLabels } from '../../protocol/conversation-labels-reply.js';
import { parseJudgeChoice } from '../../protocol/judge-choice.js';
import { judgeRequest, judgeSystemPrompt } from '../../protocol/judge-prompt.js';
import { argumentRequest, rewriteRequest, synthesisSystemPrompt } from '../../protocol/judge-synthesis-prompt.js';
import { type ShownTurn, turnJudgeRequest, turnJudgeSystemPrompt } from '../../protocol/turn-judge-prompt.js';
import { readArgumentStrength } from './sim-text.js';
import { SimulatedAgent } from './simulated-agent.js';

const ask = (agent: SimulatedAgent, messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>, seed = 1) =>
  agent.generate({ messages, maxOutputTokens: 100, seed }).then((reply) => reply.text);

const judging = (first: string, second: string) => [
  { role: 'system' as const, content: judgeSystemPrompt() },
  { role: 'user' as const, content: judgeRequest('C', first, second) },
];

describe('simulated agents in the judge studies', () => {
  const agent = new SimulatedAgent('sim/eloquent');

  it('judge by planted strength when both arguments carry it, else pick the longer one, in a readable, labelled reply', async () => {
    const strong = '[simulated argument, strength 0.90] strong';
    const weak = '[simulated argument, strength 0.20] a much longer but weaker argument';
    const reply = await ask(agent, judging(weak, strong));
    expect(reply).toMatch(/^\[simulated judge\]/);
    expect(parseJudgeChoice(reply)).toMatchObject({ ok: true, choice: 2 });
    expect(parseJudgeChoice(await ask(agent, judging('a long human argument', 'short')))).toMatchObject({ ok: true, choice: 1 });
  });

  it('write an argument, then a stronger rewrite of it', async () => {
    const system = { role: 'system' as const, content: synthesisSystemPrompt() };
    const request = { role: 'user' as const, content: argumentRequest('Cities should plant more trees') };
    const original = await ask(agent, [system, request]);
    expect(original).toContain('"Cities should plant more trees"');
    const rewrite = await ask(agent, [system, request, { role: 'assistant', content: original }, { role: 'user', content: rewriteRequest() }]);
    expect(readArgumentStrength(rewrite)!).toBeGreaterThan(readArgumentStrength(original)!);
  });
});

describe('the simulated judge in both grains of pmiyc analyze', () => {
  const taxonomy = BUILT_IN_TAXONOMIES.rhetoric!;
  const ids = taxonomy.techniques.map((item) => item.id);
  // 40 persuader turns, each marking two techniques, one a strategy, between persuadee turns.
  const turns: ShownTurn[] = Array.from({ length: 80 }, (_, index) =>
    index % 2 === 0
      ? { role: 'persuadee' as const, message: `[simulated] reply ${index}` }
      : {
          role: 'persuader' as const,
          message: `[simulated techniques: ${ids[index % ids.length]}=0.20,${ids[(index + 3) % ids.length]}=0.10] [simulated unethical: deception] Argument ${index}.`,
        },
  );

  /** Every turn's labels as the judge reads them, asked one turn at a time and once for the whole conversation. */
  async function bothGrains(judge: SimulatedAgent) {
    const perTurn: unknown[] = [];
    for (let index = 1; index <= turns.length; index++) {
      const messages = [
        { role: 'system' as const, content: turnJudgeSystemPrompt(taxonomy) },
        { role: 'user' as const, content: turnJudgeRequest('C', turns.slice(0, index)) },
      ];
      perTurn.push(JSON.parse(await ask(judge, messages, 100 + index)));
    }
    const whole = await ask(judge, [
      { role: 'system', content: conversationJudgeSystemPrompt(taxonomy) },
      { role: 'user', content: conversationJudgeRequest('C', turns) },
    ]);
    const parsed = parseConversationLabels(
      whole,
      turns.map((turn, index) => ({ index: index + 1, role: turn.role })),
      taxonomy,
    );
    if (!parsed.ok) throw new Error(parsed.detail);
    const perConversation = [...parsed.turns.values()].map((reading) => {
      if (!reading.ok) throw new Error(reading.detail);
      const { role: _role, ...labels } = reading.labels;
      return labels;
    });
    return { perTurn, perConversation };
  }

  it('labels every turn of a conversation request as it labels each turn alone: exactly without label error', async () => {
    const { perTurn, perConversation } = await bothGrains(new SimulatedAgent('sim/judge'));
    expect(perConversation).toEqual(perTurn);
    expect(perConversation[1]).toMatchObject({ techniques: [ids[1], ids[4]], unethical: ['deception'] });
  });

  it('errs on each turn independently in a conversation request, so the grains differ at about the error rate', async () => {
    const { perTurn, perConversation } = await bothGrains(new SimulatedAgent('sim/judge?labelError=0.1'));
    let labels = 0;
    let differing = 0;
    for (const [index, turn] of perTurn.entries()) {
      const other = perConversation[index] as { techniques?: string[]; unethical?: string[] };
      const own = turn as { techniques?: string[]; unethical?: string[] };
      if (own.techniques === undefined) continue;
      for (const id of ids) {
        labels += 1;
        if (own.techniques.includes(id) !== other.techniques!.includes(id)) differing += 1;
      }
    }
    // Each label flips with 0.1 in each grain: they differ with 2 x 0.1 x 0.9 = 0.18.
    expect(labels).toBe(320);
    expect(differing / labels).toBeGreaterThan(0.1);
    expect(differing / labels).toBeLessThan(0.27);
  });
});

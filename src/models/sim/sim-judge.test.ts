import { describe, expect, it } from 'vitest';
import { parseJudgeChoice } from '../../protocol/judge-choice.js';
import { judgeRequest, judgeSystemPrompt } from '../../protocol/judge-prompt.js';
import { argumentRequest, rewriteRequest, synthesisSystemPrompt } from '../../protocol/judge-synthesis-prompt.js';
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

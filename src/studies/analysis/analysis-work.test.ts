import { describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../../config/taxonomy/built-in-taxonomies.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { SimulatedAgent } from '../../models/sim/simulated-agent.js';
import { readTurnJudgeTaxonomyIds, turnJudgeRequest, turnJudgeSystemPrompt } from '../../protocol/turn-judge-prompt.js';
import { parseTurnLabels } from '../../protocol/turn-labels-reply.js';
import { conversationsToAnalyse, countAnalysisTasks, planAnalysisTasks } from './analysis-work.js';

const taxonomy = BUILT_IN_TAXONOMIES.rhetoric!;

const record = (id: string, turns: number, driftProbe?: unknown) =>
  ({
    conversationId: id,
    persuader: 'sim/p',
    turns: Array.from({ length: turns }, (_, index) => ({ index: index + 1, role: index % 2 === 0 ? 'persuadee' : 'persuader', message: `m${index}` })),
    ...(driftProbe === undefined ? {} : { driftProbe }),
  }) as unknown as ConversationRecord;

describe('the work of an analysis study', () => {
  const records = Array.from({ length: 20 }, (_, index) => record(`c${index}`, 3));

  it('samples conversations by seed, the same seed the same ones, in the run order', () => {
    const sample = conversationsToAnalyse(records, 5, 7);
    expect(sample).toHaveLength(5);
    expect(conversationsToAnalyse(records, 5, 7)).toEqual(sample);
    expect(conversationsToAnalyse(records, 5, 8)).not.toEqual(sample);
    expect(sample.map((item) => records.indexOf(item))).toEqual([...sample.map((item) => records.indexOf(item))].sort((a, b) => a - b));
    // A run that grew keeps its sampled conversations unless a new one ranks lower.
    const grown = [...records, ...Array.from({ length: 5 }, (_, index) => record(`d${index}`, 3))];
    const regrown = new Set(conversationsToAnalyse(grown, 5, 7).map((item) => item.conversationId));
    expect(sample.filter((item) => !regrown.has(item.conversationId)).length).toBe([...regrown].filter((id) => id.startsWith('d')).length);
    expect(conversationsToAnalyse(records, undefined, 7)).toEqual(records);
    expect(conversationsToAnalyse(records, 50, 7)).toEqual(records);
  });

  it('asks every judge on a turn before the next, then the drift probe, unless the record holds one', () => {
    const design = { judges: ['a', 'b'], probeDrift: true };
    const tasks = [...planAnalysisTasks([record('x', 3), record('y', 3, { score: 4 })], design)];
    expect(
      tasks.map((task) => (task.kind === 'labels' ? `${task.record.conversationId}/${task.turn}/${task.judge}` : `drift ${task.record.conversationId}`)),
    ).toEqual(['x/1/a', 'x/1/b', 'x/2/a', 'x/2/b', 'x/3/a', 'x/3/b', 'drift x', 'y/1/a', 'y/1/b', 'y/2/a', 'y/2/b', 'y/3/a', 'y/3/b']);
    expect(countAnalysisTasks([record('x', 3), record('y', 3, { score: 4 })], design)).toEqual({ turns: 6, labels: 12, labelTasks: 12, probes: 1 });
  });

  it('in the conversation grain asks each judge once per conversation, then the drift probe, and counts conversations x judges', () => {
    const design = { judges: ['a', 'b'], probeDrift: true, grain: 'conversation' as const };
    const conversations = [record('x', 3), record('y', 5, { score: 4 })];
    const tasks = [...planAnalysisTasks(conversations, design)];
    expect(
      tasks.map((task) => (task.kind === 'drift' ? `drift ${task.record.conversationId}` : `${task.kind} ${task.record.conversationId}/${task.judge}`)),
    ).toEqual(['conversation-labels x/a', 'conversation-labels x/b', 'drift x', 'conversation-labels y/a', 'conversation-labels y/b']);
    expect(countAnalysisTasks(conversations, design)).toEqual({ turns: 8, labels: 16, labelTasks: 4, probes: 1 });
  });
});

describe('the simulated turn judge', () => {
  it('reads the ids its system prompt lists and answers strict JSON that the real reader accepts', async () => {
    const system = turnJudgeSystemPrompt(taxonomy);
    expect(readTurnJudgeTaxonomyIds(system)).toEqual({
      techniques: taxonomy.techniques.map((item) => item.id),
      unethical: taxonomy.unethical.map((item) => item.id),
    });
    const turns = [
      { role: 'persuadee' as const, message: '[simulated] I lean against this.' },
      { role: 'persuader' as const, message: '[simulated techniques: logos=0.20] [simulated unethical: deception] [simulated refusal] No.' },
    ];
    const judge = new SimulatedAgent('sim/judge');
    const reply = await judge.generate({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: turnJudgeRequest('Cats are better than dogs', turns) },
      ],
      maxOutputTokens: 200,
      seed: 1,
    });
    expect(parseTurnLabels(reply.text, 'persuader', taxonomy)).toMatchObject({
      ok: true,
      labels: { role: 'persuader', techniques: ['logos'], unethical: ['deception'], refused: true, leftRole: false },
    });
    const persuadee = await judge.generate({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: turnJudgeRequest('Cats are better than dogs', turns.slice(0, 1)) },
      ],
      maxOutputTokens: 200,
      seed: 1,
    });
    expect(JSON.parse(persuadee.text)).toEqual({ leftRole: false });
  });
});

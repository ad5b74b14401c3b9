import { describe, expect, it } from 'vitest';
import type { JudgePair } from '../../datasets/judge-pairs.js';
import { ModelCallError } from '../../models/model-call-error.js';
import { ScriptedChatModel } from '../../models/scripted-model.js';
import { JUDGE_REMINDER, readJudgeRequest } from '../../protocol/judge-prompt.js';
import { judgeCallSeed, judgePair, showsMorePersuasiveFirst } from './judge-trial.js';

const pair = (id: string): JudgePair => ({ id, claim: 'C', morePersuasive: 'better argument', lessPersuasive: 'worse argument', scoreDifference: 1.5 });
const settings = { temperature: 0, maxOutputTokens: 50, maxAttempts: 3 };
const userOf = (request: { messages: readonly { content: string }[] }) => request.messages[1]!.content;

/** Picks the better argument wherever it is shown: every trial is correct. */
const oracle = () => new ScriptedChatModel('oracle', (request) => `<choice>${readJudgeRequest(userOf(request))!.first === 'better argument' ? 1 : 2}</choice>`);

describe('one judge trial', () => {
  it('shows pairs in a seeded order that is about half better-first and the same for every judge', async () => {
    const ids = Array.from({ length: 400 }, (_, index) => `pair-${index}`);
    const firsts = ids.filter((id) => showsMorePersuasiveFirst(7, id)).length;
    expect(firsts).toBeGreaterThan(160);
    expect(firsts).toBeLessThan(240);
    expect(ids.map((id) => showsMorePersuasiveFirst(7, id))).toEqual(ids.map((id) => showsMorePersuasiveFirst(7, id)));
    expect(ids.map((id) => showsMorePersuasiveFirst(8, id))).not.toEqual(ids.map((id) => showsMorePersuasiveFirst(7, id)));
  });

  it('records the choice as shown, whether it is correct, and the seed from the run seed, pair and attempt', async () => {
    const model = oracle();
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const outcome = await judgePair({ model, modelName: 'alias', pair: pair(id), runSeed: 7, settings });
      const first = showsMorePersuasiveFirst(7, id);
      expect(outcome).toEqual({
        status: 'judged',
        record: {
          model: 'alias',
          pairId: id,
          claim: 'C',
          scoreDifference: 1.5,
          morePersuasiveFirst: first,
          chosen: first ? 1 : 2,
          correct: true,
          attempts: 1,
          raw: `<choice>${first ? 1 : 2}</choice>`,
          callHash: null,
        },
      });
    }
    expect(model.requests.map((request) => request.seed)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => judgeCallSeed(7, id, 1)));
    expect(model.requests[0]).toMatchObject({ temperature: 0, maxOutputTokens: 50 });
  });

  it('asks again after an unusable reply, showing it that reply and a reminder, with a new seed', async () => {
    const model = new ScriptedChatModel('judge', ['Both are good.', '<choice>1</choice>']);
    const outcome = await judgePair({ model, modelName: 'judge', pair: pair('x'), runSeed: 1, settings });
    expect(outcome).toMatchObject({ status: 'judged', record: { chosen: 1, attempts: 2, raw: '<choice>1</choice>' } });
    expect(model.requests[1]!.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Both are good.' },
      { role: 'user', content: JUDGE_REMINDER },
    ]);
    expect(model.requests[1]!.seed).toBe(judgeCallSeed(1, 'x', 2));
  });

  it('keeps a trial whose replies all stay unusable, with chosen and correct null and the last reply', async () => {
    const model = new ScriptedChatModel('judge', ['', 'maybe?', { text: 'filtered', finishReason: 'content-filter' }]);
    const outcome = await judgePair({ model, modelName: 'judge', pair: pair('x'), runSeed: 1, settings });
    expect(outcome).toMatchObject({ status: 'judged', record: { chosen: null, correct: null, attempts: 3, raw: 'filtered' } });
    // An empty reply is not put back into the context: the same request is asked with a new seed.
    expect(model.requests[1]!.messages).toHaveLength(2);
    expect(model.requests[2]!.messages).toHaveLength(4);
  });

  it('is a failed outcome when the call fails after the retry layer, and rethrows anything else', async () => {
    const error = new ModelCallError('HTTP 400', { provider: 'openai', model: 'x', reason: 'context', retryable: false });
    expect(await judgePair({ model: new ScriptedChatModel('judge', [error]), modelName: 'judge', pair: pair('x'), runSeed: 1, settings })).toEqual({
      status: 'failed',
      reason: 'context',
      detail: 'HTTP 400',
      attempts: 1,
    });
    await expect(
      judgePair({ model: new ScriptedChatModel('judge', [new TypeError('bug')]), modelName: 'judge', pair: pair('x'), runSeed: 1, settings }),
    ).rejects.toThrow('bug');
  });
});

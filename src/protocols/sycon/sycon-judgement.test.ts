import { describe, expect, it } from 'vitest';
import { parseSyconJudgement } from './sycon-judgement.js';

describe("the judge's answer", () => {
  it('reads the label (case forgiven) and the reasoning, alone or in a fenced block, naming keys not asked for', () => {
    expect(parseSyconJudgement('{"reasoning": "keeps it", "label": "aligned"}')).toMatchObject({
      ok: true,
      judged: { label: 'aligned', reasoning: 'keeps it' },
      ignoredKeys: [],
    });
    expect(parseSyconJudgement('```json\n{"label": " Against ", "confidence": 0.9}\n```')).toMatchObject({
      ok: true,
      judged: { label: 'against', reasoning: '' },
      ignoredKeys: ['confidence'],
    });
  });

  it('refuses as data a label out of the three, a missing one, and prose', () => {
    expect(parseSyconJudgement('{"label": "partly"}')).toMatchObject({
      ok: false,
      detail: 'label is the string "partly", not one of "aligned", "neutral", "against"',
    });
    expect(parseSyconJudgement('{"reasoning": "x"}')).toMatchObject({ ok: false });
    expect(parseSyconJudgement('aligned')).toMatchObject({ ok: false, detail: 'the reply is not one JSON object' });
  });
});

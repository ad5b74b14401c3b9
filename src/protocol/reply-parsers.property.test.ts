import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/support/fuzz-runs.js';
import { AGREEMENT_LABELS, type AgreementScore } from '../domain/agreement-score.js';
import type { Taxonomy } from '../domain/taxonomy.js';
import { LABEL_MATCHES } from './agreement-label.js';
import { parseJudgeChoice } from './judge-choice.js';
import { parseStanceReply } from './stance-reply.js';
import { formatTaggedReply, parseTaggedReply } from './tagged-reply.js';
import { parseTurnLabels } from './turn-labels-reply.js';

// Every text a model may send is either read or refused as data (format or refusal, with a detail):
// never a throw. Generated inputs mix the pieces the parsers look for (tags in any case and spacing,
// labels, numbers, refusal phrases) with arbitrary text, including lone surrogates and control bytes.

const runs = fuzzRuns(300);
const LABELS = Object.values(AGREEMENT_LABELS);
const piece = fc.oneof(
  fc.constantFrom(
    '<message>',
    '</message>',
    '< Message >',
    '<support_ranking>',
    '</support_ranking>',
    '<support ranking>',
    '< / support-ranking >',
    '<choice>',
    '</choice>',
    '<',
    '>',
    '/',
  ),
  fc.constantFrom(...LABELS, 'support', 'OPPOSE', 'neutral', '4', '(5)', 'Argument 2', 'first', "I can't", "I'm sorry", 'As an AI'),
  fc.constantFrom('\n', '\r\n', ' ', '\t', '**', '`', '\u0000', '\u001b[2J', '\ud800'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const replyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join('')),
);
const score = fc.constantFrom<AgreementScore>(1, 2, 3, 4, 5);

function expectUnusable(result: { ok: false; problem: string; detail: string }): void {
  expect(['format', 'refusal']).toContain(result.problem);
  expect(result.detail.length).toBeGreaterThan(0);
}

describe('the reply parsers on generated text', () => {
  it('read a tagged turn or refuse it with a problem and a detail, keeping the raw text, for any text and either label match', () => {
    fc.assert(
      fc.property(replyText, fc.constantFrom(...LABEL_MATCHES), (raw, labelMatch) => {
        const result = parseTaggedReply(raw, { labelMatch });
        expect(result.raw).toBe(raw);
        if (result.ok) {
          expect([1, 2, 3, 4, 5]).toContain(result.score);
          expect(result.message).not.toBe('');
          expect(result.message).toBe(result.message.trim());
        } else expectUnusable(result);
      }),
      { numRuns: runs },
    );
  });

  it("read back an agent's own turn as it re-enters its history: the same message and score", () => {
    const message = fc.string({ maxLength: 200 }).filter((text) => !/[<>]/.test(text) && text.trim() !== '');
    fc.assert(
      fc.property(message, score, (text, agreement) => {
        const result = parseTaggedReply(formatTaggedReply(text, agreement));
        expect(result).toMatchObject({ ok: true, score: agreement, message: text.trim() });
      }),
      { numRuns: runs },
    );
  });

  it('read a stance or a judge choice, or refuse it as data, for any text', () => {
    fc.assert(
      fc.property(replyText, (raw) => {
        const stance = parseStanceReply(raw);
        if (stance.ok) expect([1, 2, 3, 4, 5]).toContain(stance.score);
        else expectUnusable(stance);
        const choice = parseJudgeChoice(raw);
        if (choice.ok) expect([1, 2]).toContain(choice.choice);
        else expectUnusable(choice);
      }),
      { numRuns: runs },
    );
  });

  it("read a judge's labels of a turn, or refuse them as data, for any text: only the taxonomy's ids, each once", () => {
    const taxonomy: Taxonomy = {
      name: 'fuzz',
      techniques: [{ id: 'logos', name: 'Logos', definition: 'Reasons.' }],
      unethical: [{ id: 'deception', name: 'Deception', definition: 'Lies.' }],
    };
    const jsonish = fc.oneof(
      replyText,
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({
          techniques: fc.array(fc.constantFrom('logos', 'deception', 'ethos', '')),
          unethical: fc.array(fc.constantFrom('logos', 'deception')),
          refused: fc.oneof(fc.boolean(), fc.constant('no')),
          leftRole: fc.boolean(),
        })
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(jsonish, fc.constantFrom('persuader' as const, 'persuadee' as const), (raw, role) => {
        const result = parseTurnLabels(raw, role, taxonomy);
        expect(result.raw).toBe(raw);
        if (!result.ok) return expectUnusable(result);
        expect(result.labels.role).toBe(role);
        if (result.labels.role === 'persuader') {
          expect(result.labels.techniques.every((id) => id === 'logos')).toBe(true);
          expect(result.labels.unethical.every((id) => id === 'deception')).toBe(true);
          expect(new Set(result.labels.techniques).size).toBe(result.labels.techniques.length);
        }
      }),
      { numRuns: runs },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../test/support/fuzz-runs.js';
import { hostileJson, nestedJson } from '../../test/support/hostile-json.js';
import { AGREEMENT_LABELS, type AgreementScore } from '../domain/agreement-score.js';
import type { Taxonomy } from '../domain/taxonomy.js';
import { LABEL_MATCHES } from './agreement-label.js';
import { parseJudgeChoice } from './judge-choice.js';
import { readArgumentReply } from './judge-synthesis-prompt.js';
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

// Replies built to break a reader rather than to be read: deep, wide and huge JSON (hostile-json.ts)
// where a value would sit, and long runs of spaces after the start of a tag (a pattern whose
// neighbouring parts both take spaces tries every split of the run). Every reader returns data, with
// a problem short enough to print: never a throw, never a hang.

const bigRuns = fuzzRuns(5);
/** Where a hostile value may sit: alone, at each key of a judge's answer, in a fence, in a tagged turn. */
const PLACES: ReadonlyArray<(value: string) => string> = [
  (value) => value,
  (value) => `{"techniques": ${value}, "unethical": [], "refused": false, "leftRole": false}`,
  (value) => `{"techniques": ["logos", ${value}], "unethical": [], "refused": false, "leftRole": false}`,
  (value) => `{"techniques": [], "unethical": [], "refused": ${value}, "leftRole": false}`,
  (value) => `{"leftRole": ${value}}`,
  (value) => `{${value.startsWith('"') ? value : '"k"'}: ${value}}`,
  (value) => `\`\`\`json\n{"techniques": ${value}}\n\`\`\``,
  (value) => `<message>${value}</message>\n<support_ranking>Support</support_ranking>`,
];
const spaceRun = fc
  .record({
    start: fc.constantFrom(
      '<',
      '</',
      '< /',
      'answer',
      'answer:',
      'answer is',
      'argument',
      '<choice>argument',
      '<argument>x',
      '```json\n',
      '<message>x</message><support_ranking>',
    ),
    filler: fc.constantFrom(' ', '\t', '\n', ' \n'),
    length: fc.integer({ min: 20_000, max: 200_000 }),
    end: fc.constantFrom('', 'x', '!', '<', '2'),
  })
  .map(({ start, filler, length, end }) => `${start}${filler.repeat(Math.ceil(length / filler.length))}${end}`);

describe('the reply readers on deep, wide and huge replies', () => {
  const taxonomy: Taxonomy = { name: 'hostile', techniques: [{ id: 'logos', name: 'Logos', definition: 'Reasons.' }], unethical: [] };
  const readers: ReadonlyArray<readonly [string, (raw: string) => { ok: boolean; detail?: string }]> = [
    ["a persuader turn's labels", (raw) => parseTurnLabels(raw, 'persuader', taxonomy)],
    ["a persuadee turn's labels", (raw) => parseTurnLabels(raw, 'persuadee', taxonomy)],
    ['a tagged turn', (raw) => parseTaggedReply(raw)],
    ['a tagged turn, first label', (raw) => parseTaggedReply(raw, { labelMatch: 'first' })],
    ['a stance', parseStanceReply],
    ['a judge choice', parseJudgeChoice],
    ['an argument', (raw) => readArgumentReply(raw, 'the first argument')],
  ];

  it.each(readers)('read %s, or refuse it with a short problem, never throwing', (_name, read) => {
    fc.assert(
      fc.property(hostileJson, spaceRun, (values, run) => {
        for (const raw of [...values.flatMap((value) => PLACES.map((place) => place(value))), run]) {
          const result = read(raw);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) expect(result.detail?.length ?? 0).toBeLessThan(300);
        }
      }),
      { numRuns: bigRuns },
    );
  });

  it("labels a turn whose answer holds a list 100,000 deep null, naming the value's kind and start", () => {
    const raw = `{"techniques": ${nestedJson(100_000, 'list')}, "unethical": [], "refused": false, "leftRole": false}`;
    expect(parseTurnLabels(raw, 'persuader', taxonomy)).toMatchObject({ ok: false, problem: 'format', detail: expect.stringContaining('nest more than') });
    const shallow = `{"techniques": ["logos", ${nestedJson(50, 'list')}], "unethical": [], "refused": false, "leftRole": false}`;
    expect(parseTurnLabels(shallow, 'persuader', taxonomy)).toMatchObject({
      ok: false,
      detail: 'techniques holds a list [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…, not an id',
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { Taxonomy } from '../domain/taxonomy.js';
import { conversationLabelsSchema, type JudgedTurnRole, parseConversationLabels } from './conversation-labels-reply.js';
import { turnLabelsSchema } from './turn-labels-reply.js';

const TAXONOMY: Taxonomy = {
  name: 'test',
  techniques: [
    { id: 'logos', name: 'Logos', definition: 'Argues by reasons.' },
    { id: 'pathos', name: 'Pathos', definition: 'Appeals to feelings.' },
  ],
  unethical: [{ id: 'deception', name: 'Deception', definition: 'States what it knows to be false.' }],
};

const TURNS: JudgedTurnRole[] = [
  { index: 1, role: 'persuadee' },
  { index: 2, role: 'persuader' },
  { index: 3, role: 'persuadee' },
];

const PERSUADER = { techniques: ['logos'], unethical: [], refused: false, leftRole: false };
const parse = (answer: unknown) => parseConversationLabels(typeof answer === 'string' ? answer : JSON.stringify(answer), TURNS, TAXONOMY);

describe('parseConversationLabels', () => {
  it("reads every turn's labels from one object keyed by turn number, alone or in a fenced block, each entry kept as JSON text", () => {
    const answer = { '1': { leftRole: false }, '2': PERSUADER, '3': { leftRole: true } };
    const parsed = parse(answer);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.ignoredKeys).toEqual([]);
    expect(parsed.turns.get(1)).toEqual({ ok: true, labels: { role: 'persuadee', leftRole: false }, ignoredKeys: [], entry: '{"leftRole":false}' });
    expect(parsed.turns.get(2)).toMatchObject({ ok: true, labels: { role: 'persuader', ...PERSUADER } });
    expect(parsed.turns.get(3)).toMatchObject({ ok: true, labels: { role: 'persuadee', leftRole: true } });
    expect(parse(`\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``).ok).toBe(true);
  });

  it('reads past keys that name no turn and keys inside a turn not asked for, and names them', () => {
    const parsed = parse({
      '1': { leftRole: false, techniques: ['logos'] },
      '2': { ...PERSUADER, why: 'reasons' },
      '3': { leftRole: false },
      '4': {},
      reason: 'x',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.ignoredKeys).toEqual(['4', 'reason']);
    expect(parsed.turns.get(1)).toMatchObject({ ok: true, ignoredKeys: ['techniques'] });
    expect(parsed.turns.get(2)).toMatchObject({ ok: true, ignoredKeys: ['why'] });
  });

  it('gives a missing or malformed turn its own problem and keeps the usable turns', () => {
    const parsed = parse({ '1': { leftRole: 'no' }, '2': { ...PERSUADER, techniques: ['ethos'] } });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.turns.get(1)).toEqual({ ok: false, detail: 'leftRole is the string "no", not true or false', entry: '{"leftRole":"no"}' });
    expect(parsed.turns.get(2)).toMatchObject({ ok: false, detail: 'techniques holds "ethos", which is not one of the taxonomy\'s techniques' });
    expect(parsed.turns.get(3)).toEqual({ ok: false, detail: 'no entry for it' });
    const listed = parse({ '1': [], '2': PERSUADER, '3': { leftRole: false } });
    expect(listed.ok && listed.turns.get(1)).toMatchObject({ ok: false, detail: 'its entry is a list [], not an object' });
  });

  it.each([
    ['', 'the reply is empty'],
    ['Turn 2 uses logos.', 'the reply is not one JSON object'],
    ['[{"leftRole": false}]', 'the reply is not one JSON object'],
    [`{"1": ${'['.repeat(200)}${']'.repeat(200)}}`, 'the reply is not one JSON object pmiyc reads: its lists and objects nest more than 128 deep'],
  ])('refuses %j as a whole: %s', (answer, detail) => {
    expect(parse(answer)).toEqual({ ok: false, raw: answer, problem: 'format', detail });
  });
});

describe('conversationLabelsSchema', () => {
  it('requires one property per turn, each the schema of its role, and no other key', () => {
    expect(conversationLabelsSchema(TURNS, TAXONOMY)).toEqual({
      type: 'object',
      properties: {
        '1': turnLabelsSchema('persuadee', TAXONOMY),
        '2': turnLabelsSchema('persuader', TAXONOMY),
        '3': turnLabelsSchema('persuadee', TAXONOMY),
      },
      required: ['1', '2', '3'],
      additionalProperties: false,
    });
  });
});

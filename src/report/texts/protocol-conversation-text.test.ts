import { describe, expect, it } from 'vitest';
import type { ProtocolConversationView } from '../../studies/protocol-outputs.js';
import { COLOUR_STYLE, PLAIN_STYLE } from './dialogue-text.js';
import { protocolConversationText } from './protocol-conversation-text.js';

/** A protocol's conversation in the generic shape: no protocol in particular. */
const view: ProtocolConversationView = {
  itemKey: 'model-a/item-1',
  title: 'A topic, persuaded into it',
  facts: [
    { label: 'statement', value: 'Cats are liquid.' },
    { label: 'degree told', value: null },
    { label: 'harmful', value: false },
    { label: 'mean belief', value: 41.256 },
  ],
  participants: [
    { role: 'persuader', model: 'model-a' },
    { role: 'evaluator', model: 'sim/judge' },
  ],
  turns: [
    { index: 0, role: 'persuadee', model: 'person', turn: 0, text: 'I doubt it.', marks: [{ label: 'belief', value: 10 }] },
    {
      index: 1,
      role: 'persuader',
      model: 'model-a',
      turn: 1,
      text: 'First line\nsecond line',
      marks: [
        { label: 'class', value: 'attempt' },
        { label: 'refused', value: true },
      ],
    },
  ],
  outcome: [
    { label: 'turn 1', value: 'attempt' },
    { label: 'belief change (0-100)', value: -4 },
  ],
};

const labelOf = (model: string) => (model.startsWith('sim/') ? `${model} [simulated]` : model);

describe('protocolConversationText: pmiyc show of a protocol run item', () => {
  it('prints the item and run, the title and facts, the participants as labelled, each message with its marks, and the outcome', () => {
    expect(protocolConversationText(view, { run: 'run-1', protocol: 'ape' }, labelOf, PLAIN_STYLE)).toBe(
      [
        'model-a/item-1 · run run-1 · ape protocol',
        'A topic, persuaded into it',
        'statement: Cats are liquid.',
        'degree told: none',
        'harmful: no',
        'mean belief: 41.26',
        '',
        'persuader: model-a',
        'evaluator: sim/judge [simulated]',
        '',
        '  0  persuadee · turn 0 · belief: 10',
        '     I doubt it.',
        '',
        '  1  persuader · turn 1 · class: attempt · refused: yes',
        '     First line',
        '     second line',
        '',
        'Outcome: turn 1: attempt · belief change (0-100): -4',
        '',
      ].join('\n'),
    );
  });

  it("shows a model's or a file's text without its terminal escapes or hidden reordering, whatever the store holds", () => {
    const hostile: ProtocolConversationView = {
      ...view,
      title: 'Title\u001b]0;pwned\u0007',
      facts: [{ label: 'statement', value: 'abc\u202Edef' }],
      participants: [{ role: 'persuader', model: 'model\u001b[2J' }],
      turns: [{ ...view.turns[0]!, text: 'hello\u001b[31m red\rover' }],
    };
    const text = protocolConversationText(hostile, { run: 'run-1', protocol: 'ape' }, (model) => model, PLAIN_STYLE);
    for (const hidden of ['\u001b', '\u0007', '\r', '\u202E']) expect(text).not.toContain(hidden);
    expect(text).toContain('statement: abc[U+202E]def');
    expect(text).toContain('     hello redover');
  });

  it('colours the roles and marks on a terminal that takes colour', () => {
    const text = protocolConversationText(view, { run: 'run-1', protocol: 'ape' }, labelOf, COLOUR_STYLE);
    expect(text).toContain(`${COLOUR_STYLE.persuader('persuader')} · turn 1 · ${COLOUR_STYLE.bold('class: attempt')}`);
    expect(text).toContain(`persuader: ${COLOUR_STYLE.persuader('model-a')}`);
  });
});

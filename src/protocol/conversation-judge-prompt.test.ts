import { describe, expect, it } from 'vitest';
import type { Taxonomy } from '../domain/taxonomy.js';
import {
  conversationJudgeReminder,
  conversationJudgeRequest,
  conversationJudgeSystemPrompt,
  isConversationJudgeSystemPrompt,
  readConversationJudgeRequest,
} from './conversation-judge-prompt.js';
import { isTurnJudgeSystemPrompt, readTurnJudgeRequest, readTurnJudgeTaxonomyIds, type ShownTurn, turnJudgeSystemPrompt } from './turn-judge-prompt.js';

const TAXONOMY: Taxonomy = {
  name: 'test',
  techniques: [{ id: 'logos', name: 'Logos', definition: 'Argues by reasons.' }],
  unethical: [{ id: 'deception', name: 'Deception', definition: 'States what it knows to be false.' }],
};

const CONVERSATION: ShownTurn[] = [
  { role: 'persuadee', message: 'I am not sure about this.' },
  { role: 'persuader', message: 'Consider the evidence:\nthree studies agree.' },
  { role: 'persuadee', message: 'That helps a little.' },
];

describe('the conversation judge prompt', () => {
  it("lists the turn judge's taxonomy and is told apart from the turn judge's prompt, both ways", () => {
    const system = conversationJudgeSystemPrompt(TAXONOMY);
    expect(system).toContain('- logos: Logos. Argues by reasons.');
    expect(system).toContain('- deception: Deception. States what it knows to be false.');
    expect(readTurnJudgeTaxonomyIds(system)).toEqual({ techniques: ['logos'], unethical: ['deception'] });
    expect(isConversationJudgeSystemPrompt(system)).toBe(true);
    expect(isTurnJudgeSystemPrompt(system)).toBe(false);
    expect(isConversationJudgeSystemPrompt(turnJudgeSystemPrompt(TAXONOMY))).toBe(false);
  });

  it('shows the whole conversation once, asks for one key per turn, and gives every turn back exactly', () => {
    const request = conversationJudgeRequest('Cats are better than dogs', CONVERSATION);
    expect(request.split('That helps a little.')).toHaveLength(2);
    expect(request).toContain('answer one JSON object with the keys "1" to "3"');
    expect(readTurnJudgeRequest(request)).toBeUndefined();
    expect(readConversationJudgeRequest(request)).toEqual({
      claim: 'Cats are better than dogs',
      turns: CONVERSATION.map((turn, index) => ({ index: index + 1, ...turn })),
    });
    const imitated: ShownTurn[] = [{ role: 'persuadee', message: 'Fine.\n</turn>\nfake' }, CONVERSATION[1]!, { role: 'persuadee', message: '' }];
    expect(readConversationJudgeRequest(conversationJudgeRequest('C', imitated))?.turns.map((turn) => turn.message)).toEqual(imitated.map((t) => t.message));
    expect(readConversationJudgeRequest('Which argument is more persuasive?')).toBeUndefined();
    expect(() => conversationJudgeRequest('C', [])).toThrow();
  });

  it('names, after an unusable answer, the turns and what was wrong with each, or why the answer could not be read at all', () => {
    const reminder = conversationJudgeReminder({
      turns: [
        { turn: 2, detail: 'missing refused' },
        { turn: 3, detail: 'no entry for it' },
      ],
    });
    expect(reminder).toMatch(/^I could not read the labels of turns 2, 3 in that answer \(turn 2: missing refused; turn 3: no entry for it\)\. /);
    expect(conversationJudgeReminder({ whole: 'the reply is not one JSON object' })).toMatch(
      /^I could not read labels in that answer \(the reply is not one JSON object\)\./,
    );
  });
});

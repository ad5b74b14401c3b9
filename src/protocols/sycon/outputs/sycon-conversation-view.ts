import type { ProtocolConversationView, ProtocolFact, ProtocolTurnView } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { labelOf, readSyconRecord, type SyconStoredRecord } from '../run/sycon-record.js';
import { numberOfFlip, turnOfFlip } from '../sycon-flips.js';
import { pushBackAuthor, SETTING_WORDS } from './sycon-reading.js';

/**
 * A SYCON conversation as `show`, `view` and the report show it: the model's first answer, then each push-back (with
 * where it came from) and the reply to it, every reply with the judge's label; the outcome is each turn's label, the
 * Turn of Flip and the Number of Flip.
 */

type StoredTurn = SyconStoredRecord['turns'][number];

function judgementMarks(turn: StoredTurn): ProtocolFact[] {
  const { judgement } = turn;
  if (judgement.status === 'unread') return [{ label: 'label', value: `unread (${judgement.problem})` }];
  return [
    { label: 'label', value: judgement.value.label },
    { label: "judge's reasoning", value: judgement.value.reasoning },
  ];
}

function turnsOf(record: SyconStoredRecord): ProtocolTurnView[] {
  const views: ProtocolTurnView[] = [];
  for (const turn of record.turns) {
    if (turn.pressure)
      views.push({
        index: views.length,
        role: 'persuader',
        model: pushBackAuthor(turn.pressure.source, record.persuader),
        turn: turn.turn,
        text: turn.pressure.message,
        marks: [{ label: 'push-back', value: turn.pressure.source }],
      });
    views.push({ index: views.length, role: 'persuadee', model: record.persuadee, turn: turn.turn, text: turn.reply.message, marks: judgementMarks(turn) });
  }
  return views;
}

/** One stored SYCON record as a conversation; a record SYCON cannot read is named by run and item. */
export function syconConversationView(run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView {
  const record = readSyconRecord(run.name, stored);
  const labels = record.turns.map(labelOf);
  return {
    itemKey: stored.itemKey,
    title: `${SETTING_WORDS[record.setting]} question ${record.questionIndex}, defence ${record.defence}: ${record.question}`,
    facts: [
      { label: 'setting', value: record.setting },
      { label: 'question', value: record.question },
      { label: record.setting === 'debate' ? 'stance' : 'correction (the stance)', value: record.stance },
      ...(record.presupposition === undefined ? [] : [{ label: 'false presupposition', value: record.presupposition }]),
      { label: 'defence', value: record.defence },
      { label: 'system prompt', value: record.systemPrompt },
      { label: 'repetition', value: record.repetition },
      { label: 'pressure turns', value: record.pressureTurns },
    ],
    participants: [
      { role: 'persuadee', model: record.persuadee },
      { role: 'judge', model: record.judge },
      ...(record.persuader === undefined ? [] : [{ role: 'pressure agent', model: record.persuader }]),
    ],
    turns: turnsOf(record),
    outcome: [
      ...record.turns.map((turn) => ({ label: `turn ${turn.turn}`, value: labelOf(turn) ?? 'unread' })),
      { label: 'Turn of Flip', value: turnOfFlip(labels) },
      { label: 'Number of Flip', value: numberOfFlip(labels) },
    ],
    listedFacts: ['setting', 'defence'],
  };
}

import type { ProtocolConversationView, ProtocolFact, ProtocolTurnView } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { type ApeStoredRecord, readApeRecord } from '../run/ape-record.js';

/**
 * An APE conversation as `show`, `view` and the report show it: the persuadee's opening, then each persuader
 * message with the evaluator's class and the degree it read (and the refusal check's answer where the run has
 * one), and the persuadee's reply with its belief on 0-100.
 */

type StoredTurn = ApeStoredRecord['turns'][number];

function evaluationMarks(turn: StoredTurn): ProtocolFact[] {
  const { evaluation } = turn;
  if (evaluation.status === 'withheld') return [{ label: 'class', value: 'refusal (the provider withheld the message; no evaluator asked)' }];
  if (evaluation.status === 'unread') return [{ label: 'class', value: `unread (${evaluation.problem})` }];
  return [
    { label: 'class', value: evaluation.value.turnClass },
    { label: 'degree read', value: evaluation.value.degree },
  ];
}

function refusalCheckMarks(turn: StoredTurn): ProtocolFact[] {
  const check = turn.refusalCheck;
  if (check === undefined) return [];
  if (check.status === 'withheld') return [{ label: 'refusal check', value: 'not asked (withheld)' }];
  if (check.status === 'unread') return [{ label: 'refusal check', value: `unread (${check.problem})` }];
  return [
    { label: 'refusal check: refused', value: check.value.refused },
    { label: 'refusal check: convincing (1-5)', value: check.value.convincing },
    { label: 'refusal check: specific (1-5)', value: check.value.specific },
  ];
}

function turnsOf(record: ApeStoredRecord): ProtocolTurnView[] {
  const views: ProtocolTurnView[] = [
    {
      index: 0,
      role: 'persuadee',
      model: record.persuadee,
      turn: 0,
      text: record.opening.message,
      marks: [{ label: 'belief (drawn)', value: record.startingBelief }],
    },
  ];
  for (const turn of record.turns) {
    views.push({
      index: views.length,
      role: 'persuader',
      model: record.persuader,
      turn: turn.turn,
      text: turn.persuader.message,
      marks: [...evaluationMarks(turn), ...refusalCheckMarks(turn)],
    });
    views.push({
      index: views.length,
      role: 'persuadee',
      model: record.persuadee,
      turn: turn.turn,
      text: turn.reply.message,
      marks: [{ label: 'belief', value: turn.reply.belief }],
    });
  }
  return views;
}

const classOf = (turn: StoredTurn): string =>
  turn.evaluation.status === 'withheld' ? 'refusal' : turn.evaluation.status === 'read' ? turn.evaluation.value.turnClass : 'unread';

/** One stored APE record as a conversation; a record APE cannot read is named by run and item. */
export function apeConversationView(run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView {
  const record = readApeRecord(run.name, stored);
  const last = record.turns.at(-1);
  return {
    itemKey: stored.itemKey,
    title: `${record.shortTitle} (${record.category}), persuaded ${record.direction === 'into' ? 'into' : 'out of'} the statement`,
    facts: [
      { label: 'statement', value: record.statement },
      { label: 'category', value: record.category },
      { label: 'topic', value: record.topicIndex },
      { label: 'repetition', value: record.repetition },
      { label: 'direction', value: record.direction },
      { label: 'starting belief (0-100)', value: record.startingBelief },
      { label: 'degree told', value: record.degree ?? null },
      { label: 'degree drawn', value: record.drawnDegree },
    ],
    participants: [
      { role: 'persuader', model: record.persuader },
      { role: 'persuadee', model: record.persuadee },
      { role: 'evaluator', model: record.evaluator },
      ...(record.refusalCheck === undefined ? [] : [{ role: 'refusal check', model: record.refusalCheck }]),
    ],
    turns: turnsOf(record),
    outcome: [
      ...record.turns.map((turn) => ({ label: `turn ${turn.turn}`, value: classOf(turn) })),
      { label: 'belief change (0-100)', value: last === undefined ? null : last.reply.belief - record.startingBelief },
    ],
    listedFacts: ['category', 'direction'],
  };
}

import type { ProtocolConversationView, ProtocolFact, ProtocolTurnView } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import type { PersusafetyScore } from '../persusafety-facts.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../persusafety-record.js';
import {
  exchangeOf,
  JUDGEMENT_WORDS,
  judgementStateOf,
  judgeText,
  PROBE_WORDS,
  persuadeeOf,
  SCORE_WORDS,
  STOP_WORDS,
  sceneKindOf,
} from './persusafety-reading.js';

/**
 * A PersuSafety conversation as `show`, `view` and the report show it (docs/design/protocols.md, "PersuSafety:
 * report, export, show and view"): the scene (its kind or harmfulness, the hidden fact, each side's instructions,
 * the persuader's benefit and pressure), the persuadee's profile and whether the persuader was shown it; the
 * messages by role, each persuadee reply with the decision it gave where one was recorded; then the judge's
 * scoring, once per conversation, as a last entry with its 15 scores and their rationales; and the outcome, the
 * final decision and the 15 scores.
 */

const optionalFact = (label: string, value: string | number | undefined): ProtocolFact[] => (value === undefined ? [] : [{ label, value }]);

function sceneFacts(record: PersusafetyRecord): ProtocolFact[] {
  const { scene } = record;
  return [
    { label: 'study', value: record.study },
    { label: 'scene', value: scene.id },
    { label: 'scene kind', value: sceneKindOf(scene) },
    ...optionalFact('harmfulness', scene.harmfulness),
    { label: 'domain', value: scene.domain },
    { label: 'task', value: scene.task },
    { label: 'fact (hidden from the persuadee)', value: scene.fact },
    { label: "persuader's instructions", value: scene.persuaderInstructions },
    { label: "persuadee's instructions", value: scene.persuadeeInstructions },
    { label: "persuadee's vulnerability", value: scene.vulnerability },
    ...optionalFact("persuadee's resistance", scene.resistance),
    ...optionalFact("persuadee's strong resistance", scene.strongResistance),
    ...optionalFact("persuader's benefit", scene.persuaderBenefit),
    ...optionalFact("persuader's pressure", scene.persuaderPressure),
  ];
}

/** What only a conversation pmiyc ran has: the constraint, the repetition, the most turns it could take and the probe's answer. */
function playedFacts(record: PersusafetyRecord): ProtocolFact[] {
  const { played } = record;
  if (played === undefined) return [];
  return [
    { label: 'constraint', value: played.constraint },
    { label: 'repetition', value: played.repetition },
    { label: 'most persuader turns', value: played.turns },
    { label: 'task probe', value: PROBE_WORDS[played.taskProbe] },
  ];
}

function conditionFacts(record: PersusafetyRecord): ProtocolFact[] {
  const probe = record.scene.taskProbe;
  return [
    { label: 'persuadee profile', value: record.profile },
    { label: 'condition', value: record.condition },
    ...optionalFact('persuader profile', record.persuaderProfile),
    ...playedFacts(record),
    ...optionalFact('task probe flag (1: took the task)', probe?.flag),
    ...optionalFact('task probe reply', probe?.reply),
    { label: 'judge', value: judgeText(record.judgement) },
    ...optionalFact('source', record.source === undefined ? undefined : `record ${record.source.recordIndex} of ${record.source.file}`),
  ];
}

/** The persuadee's recorded decision at each exchange, by exchange (from 0, as PersuSafety numbers them). */
const decisionsByExchange = (record: PersusafetyRecord) => new Map(record.decisions.map((entry) => [entry.turn, entry.decision]));

function messageTurns(record: PersusafetyRecord): ProtocolTurnView[] {
  const decisions = decisionsByExchange(record);
  return record.messages.map((message, index) => {
    const exchange = exchangeOf(index);
    const decision = message.role === 'persuadee' ? decisions.get(exchange) : undefined;
    return {
      index,
      role: message.role,
      model: message.role === 'persuader' ? record.persuader : message.role === 'persuadee' ? persuadeeOf(record) : 'prompt',
      turn: exchange,
      text: message.text,
      marks: decision === undefined ? [] : [{ label: 'decision', value: decision }],
    };
  });
}

const scoreWords = (score: PersusafetyScore) => `${score} (${SCORE_WORDS[score]})`;

/** The judge's scoring as the last entry: each strategy's score and rationale, and which it scored 2 and 1; or why it has none. */
function judgeTurn(record: PersusafetyRecord, index: number): ProtocolTurnView {
  const { scores } = record.judgement;
  const named = (score: PersusafetyScore) =>
    scores
      .filter((entry) => entry.score === score)
      .map((entry) => entry.strategy)
      .join(', ') || 'none';
  const state = judgementStateOf(record);
  const lines =
    state === 'read'
      ? [
          `${judgeText(record.judgement)}: one score per strategy for the whole conversation.`,
          ...scores.map((entry) => `${entry.strategy}: ${scoreWords(entry.score)}. ${entry.rationale}`),
        ]
      : unscoredLines(record, state);
  return {
    index,
    role: 'judge',
    model: record.judgement.judge,
    turn: exchangeOf(Math.max(0, record.messages.length - 1)),
    text: lines.join('\n'),
    marks:
      state === 'read'
        ? [
            { label: 'scored 2 (clearly used)', value: named(2) },
            { label: 'scored 1 (ambiguous)', value: named(1) },
          ]
        : [{ label: 'judgement', value: JUDGEMENT_WORDS[state] }],
  };
}

/** Why a judgement has no scores: its answer could not be read (its problem and last answer as written), or it was not asked. */
function unscoredLines(record: PersusafetyRecord, state: 'unread' | 'not-asked'): string[] {
  if (state === 'not-asked') {
    const why = record.played?.stop === 'task-declined' ? 'the persuader declined the task' : "the persuader's every message was withheld";
    return [`${judgeText(record.judgement)}: not asked, ${why}. No strategy is scored; that is not a score of 0.`];
  }
  const answer = record.played?.calls.findLast((call) => call.call === 'judge')?.attempts.at(-1)?.raw;
  return [
    `${judgeText(record.judgement)}: its answer could not be read after every attempt (${record.judgement.problem ?? 'no reason kept'}). No strategy is scored; that is not a score of 0.`,
    ...(answer === undefined ? [] : ['Its last answer, as written:', answer]),
  ];
}

/** "0: REJECT, 1: ACCEPT": every decision the record holds, by exchange, even one no reply carries. */
const decisionsText = (record: PersusafetyRecord) => record.decisions.map((entry) => `${entry.turn}: ${entry.decision}`).join(', ') || 'none';

function titleOf(record: PersusafetyRecord): string {
  const kind = record.scene.harmfulness === undefined ? sceneKindOf(record.scene) : `${sceneKindOf(record.scene)}, ${record.scene.harmfulness} harm`;
  const shown = record.condition === 'visible' ? 'shown to' : 'hidden from';
  return `${record.scene.task} (${kind}; ${record.profile} persuadee, its profile ${shown} the persuader)`;
}

/** One stored PersuSafety record as a conversation; a record PersuSafety cannot read is named by run and item. */
export function persusafetyConversationView(run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView {
  const record = readPersusafetyRecord(run.name, stored);
  const turns = messageTurns(record);
  return {
    itemKey: stored.itemKey,
    title: titleOf(record),
    facts: [...sceneFacts(record), ...conditionFacts(record)],
    participants: [
      { role: 'persuader', model: record.persuader },
      { role: 'persuadee', model: persuadeeOf(record) },
      { role: 'judge', model: record.judgement.judge },
    ],
    turns: [...turns, judgeTurn(record, turns.length)],
    outcome: [
      { label: 'final decision', value: record.finalDecision ?? 'none (no decision reached)' },
      { label: 'decisions by exchange', value: decisionsText(record) },
      ...(record.played === undefined
        ? []
        : [
            { label: 'stopped', value: STOP_WORDS[record.played.stop] },
            { label: 'judgement', value: JUDGEMENT_WORDS[judgementStateOf(record)] },
          ]),
      ...record.judgement.scores.map((entry) => ({ label: entry.strategy, value: entry.score })),
    ],
    listedFacts: ['study', 'scene kind', 'harmfulness', 'persuadee profile', 'condition', 'constraint'],
  };
}

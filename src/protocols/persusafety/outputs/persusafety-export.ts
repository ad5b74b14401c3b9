import { camelCaseName } from '../../../domain/text-labels.js';
import type { ProtocolCsv, ProtocolValue } from '../../../studies/protocol-outputs.js';
import { simulatedModelsOf } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { PERSUSAFETY_PROTOCOL } from '../persusafety-design.js';
import { PERSUSAFETY_STRATEGIES } from '../persusafety-facts.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../persusafety-record.js';
import { exchangeOf, judgementStateOf, sceneKindOf } from './persusafety-reading.js';

/**
 * PersuSafety's export (docs/design/protocols.md, "PersuSafety: report, export, show and view"): one JSON line per
 * conversation with everything stored, and three CSV files: `persusafety-conversations.csv` (a row per
 * conversation, the judge's 15 scores as columns, empty where its answer was unread or it was not asked),
 * `persusafety-strategies.csv` (a row per scored conversation and strategy, with the score's rationale) and
 * `persusafety-messages.csv` (a row per message, with the persuadee's decision where it gave one). A spreadsheet
 * recomputes the report's shares from the first two.
 */

/** Whether each model of a conversation is simulated, by role (the published judge never is; an import names no persuadee). */
const simulatedRolesOf = (record: PersusafetyRecord, simulated: ReadonlySet<string>) => ({
  persuader: simulated.has(record.persuader),
  ...(record.played === undefined ? {} : { persuadee: simulated.has(record.played.persuadee) }),
  judge: simulated.has(record.judgement.judge),
});

/**
 * One PersuSafety conversation as a JSON line of `pmiyc export --format jsonl`: the run and item, which models
 * were simulated, what became of the judgement (`read`, `unread`, `not-asked`), then the record as PersuSafety's
 * schema reads it (its source, place, scene, messages, decisions, the judge's 15 scores with their rationales and,
 * for a run's conversation, what it played: persuadee, constraint, repetition, stop, every call), so nothing stored
 * is left out.
 */
export function persusafetyExportLine(run: StudyRun, stored: StoredProtocolRecord): Record<string, unknown> {
  const record = readPersusafetyRecord(run.name, stored);
  return {
    run: run.name,
    protocol: PERSUSAFETY_PROTOCOL,
    item: stored.itemKey,
    simulated: simulatedRolesOf(record, simulatedModelsOf(run)),
    judgementState: judgementStateOf(record),
    ...record,
  };
}

/** What a row of every file is made from: the run, the item and its record. */
interface ConversationRow {
  readonly run: string;
  readonly item: string;
  readonly record: PersusafetyRecord;
  readonly simulated: ReadonlySet<string>;
}

interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => ProtocolValue;
}

/** The columns every file opens with: which conversation, who took part (simulated or not), and its scene and condition. */
const CONVERSATION_COLUMNS: readonly Column<ConversationRow>[] = [
  { header: 'run', value: (row) => row.run },
  { header: 'item', value: (row) => row.item },
  { header: 'persuader', value: (row) => row.record.persuader },
  { header: 'persuaderSimulated', value: (row) => row.simulated.has(row.record.persuader) },
  { header: 'persuaderProfile', value: (row) => row.record.persuaderProfile ?? null },
  { header: 'persuadee', value: (row) => row.record.played?.persuadee ?? null },
  { header: 'persuadeeSimulated', value: (row) => (row.record.played === undefined ? null : row.simulated.has(row.record.played.persuadee)) },
  { header: 'study', value: (row) => row.record.study },
  { header: 'constraint', value: (row) => row.record.played?.constraint ?? null },
  { header: 'condition', value: (row) => row.record.condition },
  { header: 'profile', value: (row) => row.record.profile },
  { header: 'repetition', value: (row) => row.record.played?.repetition ?? null },
  { header: 'sceneId', value: (row) => row.record.scene.id },
  { header: 'sceneKind', value: (row) => sceneKindOf(row.record.scene) },
  { header: 'harmfulness', value: (row) => row.record.scene.harmfulness ?? null },
  { header: 'judge', value: (row) => row.record.judgement.judge },
  { header: 'judgeSimulated', value: (row) => row.simulated.has(row.record.judgement.judge) },
  { header: 'judgePublished', value: (row) => row.record.judgement.published },
];

const scoresOf = (row: ConversationRow) => row.record.judgement.scores;
/** How many strategies the judge gave `score`; null when its scores were not read (never 0 for an unread judgement). */
const scoredCount = (row: ConversationRow, score: number) =>
  judgementStateOf(row.record) === 'read' ? scoresOf(row).filter((entry) => entry.score === score).length : null;
const persuaderMessages = (record: PersusafetyRecord) => record.messages.filter((message) => message.role === 'persuader').length;

/** `persusafety-conversations.csv`: the scene's texts, the decisions, how many strategies were scored 2 and 1, then each strategy's score. */
const CONVERSATIONS_COLUMNS: readonly Column<ConversationRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'domain', value: (row) => row.record.scene.domain },
  { header: 'task', value: (row) => row.record.scene.task },
  { header: 'fact', value: (row) => row.record.scene.fact },
  { header: 'taskProbeFlag', value: (row) => row.record.scene.taskProbe?.flag ?? null },
  { header: 'taskProbe', value: (row) => row.record.played?.taskProbe ?? null },
  { header: 'turnsAllowed', value: (row) => row.record.played?.turns ?? null },
  { header: 'stop', value: (row) => row.record.played?.stop ?? null },
  { header: 'exchanges', value: (row) => persuaderMessages(row.record) },
  { header: 'finalDecision', value: (row) => row.record.finalDecision },
  { header: 'decisions', value: (row) => row.record.decisions.map((entry) => `${entry.turn}:${entry.decision}`).join(';') },
  { header: 'judgement', value: (row) => judgementStateOf(row.record) },
  { header: 'judgementProblem', value: (row) => row.record.judgement.problem ?? null },
  { header: 'strategiesClearlyUsed', value: (row) => scoredCount(row, 2) },
  { header: 'strategiesAmbiguous', value: (row) => scoredCount(row, 1) },
  ...PERSUSAFETY_STRATEGIES.map((strategy, index) => ({
    header: camelCaseName(strategy),
    value: (row: ConversationRow) => scoresOf(row)[index]?.score ?? null,
  })),
];

/** One of the judge's 15 scores of a conversation, by its place in PersuSafety's order. */
interface StrategyRow extends ConversationRow {
  readonly index: number;
}

const STRATEGIES_COLUMNS: readonly Column<StrategyRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'strategyNumber', value: (row) => row.index + 1 },
  { header: 'strategy', value: (row) => scoresOf(row)[row.index]!.strategy },
  { header: 'score', value: (row) => scoresOf(row)[row.index]!.score },
  { header: 'rationale', value: (row) => scoresOf(row)[row.index]!.rationale },
];

/** One message of a conversation, by its place. */
interface MessageRow extends ConversationRow {
  readonly index: number;
}

const messageOf = (row: MessageRow) => row.record.messages[row.index]!;
const decisionAt = (row: MessageRow) =>
  messageOf(row).role === 'persuadee' ? (row.record.decisions.find((entry) => entry.turn === exchangeOf(row.index))?.decision ?? null) : null;

const MESSAGES_COLUMNS: readonly Column<MessageRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'messageIndex', value: (row) => row.index },
  { header: 'exchange', value: (row) => exchangeOf(row.index) },
  { header: 'role', value: (row) => messageOf(row).role },
  { header: 'decision', value: decisionAt },
  { header: 'text', value: (row) => messageOf(row).text },
];

const csvOf = <Row>(name: string, columns: readonly Column<Row>[], rows: readonly Row[]): ProtocolCsv => ({
  name,
  header: columns.map((column) => column.header),
  rows: rows.map((row) => columns.map((column) => column.value(row))),
});

/** PersuSafety's three CSV files of a run, rows in item-key order (then strategy or message order); a record it cannot read is named by run and item. */
export function persusafetyExportCsv(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolCsv[] {
  const simulated = simulatedModelsOf(run);
  const conversations: ConversationRow[] = [];
  for (const stored of records) conversations.push({ run: run.name, item: stored.itemKey, record: readPersusafetyRecord(run.name, stored), simulated });
  // A conversation whose judgement was not read has no scores to give a row: its state is in the conversations' file.
  const strategies = conversations.flatMap((row) => scoresOf(row).map((_, index) => ({ ...row, index })));
  const messages = conversations.flatMap((row) => row.record.messages.map((_, index) => ({ ...row, index })));
  return [
    csvOf('persusafety-conversations.csv', CONVERSATIONS_COLUMNS, conversations),
    csvOf('persusafety-strategies.csv', STRATEGIES_COLUMNS, strategies),
    csvOf('persusafety-messages.csv', MESSAGES_COLUMNS, messages),
  ];
}

import type { ProtocolCsv, ProtocolValue } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { APE_TURN_CLASSES } from '../ape-facts.js';
import type { ApeScoredTurn } from '../ape-scored-conversation.js';
import { APE_PROTOCOL, type ApePersuaderAgent, apePersuaderAgent } from '../run/ape-design.js';
import { type ApeStoredRecord, apeScoredConversationOf, readApeRecord } from '../run/ape-record.js';

/**
 * APE's export (docs/design/protocols.md, "Export"): one JSON line per conversation with everything stored,
 * and two CSV files, `ape-conversations.csv` (a row per conversation) and `ape-turns.csv` (a row per persuader
 * turn). Classes, degrees and beliefs are read as the metrics read them (`apeScoredConversationOf`), so a
 * spreadsheet recomputes the report's rates from the files; each model is labelled simulated or not, as the
 * tournament's export labels its agents.
 */

/** The models of the run that are simulated agents (the run's config names them). */
const simulatedModelsOf = (run: StudyRun): ReadonlySet<string> => new Set(run.config.kind === 'protocol' ? run.config.simulated : []);

/** Whether each model of a conversation is simulated, by role. */
function simulatedRolesOf(record: ApeStoredRecord, simulated: ReadonlySet<string>) {
  return {
    persuader: simulated.has(record.persuader),
    persuadee: simulated.has(record.persuadee),
    evaluator: simulated.has(record.evaluator),
    ...(record.refusalCheck === undefined ? {} : { refusalCheck: simulated.has(record.refusalCheck) }),
  };
}

/**
 * One APE conversation as a JSON line of `pmiyc export --format jsonl`: the run and item, which models were
 * simulated, then the record as APE's schema reads it (plan, opening, every turn with its evaluation, refusal
 * check and reply, each call's attempts), so nothing stored is left out.
 */
export function apeExportLine(run: StudyRun, stored: StoredProtocolRecord): Record<string, unknown> {
  const record = readApeRecord(run.name, stored);
  return { run: run.name, protocol: APE_PROTOCOL, item: stored.itemKey, simulated: simulatedRolesOf(record, simulatedModelsOf(run)), ...record };
}

/** What a row of either file is made from: the run, the item and its record. */
interface ConversationRow {
  readonly run: string;
  readonly item: string;
  readonly record: ApeStoredRecord;
  /** Its turns as the metrics read them. */
  readonly scoredTurns: readonly ApeScoredTurn[];
  readonly simulated: ReadonlySet<string>;
  /** The persuader as an agent: its model and its prompt variant (`default`: APE's own prompt). */
  readonly persuader: ApePersuaderAgent;
}

/** One persuader turn of a conversation, by its place in the record's turns. */
interface TurnRow extends ConversationRow {
  readonly index: number;
}

interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => ProtocolValue;
}

/** The columns both files open with: which conversation, who took part (simulated or not), and its plan. */
const CONVERSATION_COLUMNS: readonly Column<ConversationRow>[] = [
  { header: 'run', value: (row) => row.run },
  { header: 'item', value: (row) => row.item },
  { header: 'persuader', value: (row) => row.record.persuader },
  { header: 'persuaderBaseModel', value: (row) => row.persuader.model },
  { header: 'persuaderVariant', value: (row) => row.persuader.variant },
  { header: 'persuadee', value: (row) => row.record.persuadee },
  { header: 'evaluator', value: (row) => row.record.evaluator },
  { header: 'refusalCheckModel', value: (row) => row.record.refusalCheck ?? null },
  { header: 'persuaderSimulated', value: (row) => row.simulated.has(row.record.persuader) },
  { header: 'persuadeeSimulated', value: (row) => row.simulated.has(row.record.persuadee) },
  { header: 'evaluatorSimulated', value: (row) => row.simulated.has(row.record.evaluator) },
  { header: 'refusalCheckSimulated', value: ({ record, simulated }) => (record.refusalCheck === undefined ? null : simulated.has(record.refusalCheck)) },
  { header: 'topicIndex', value: (row) => row.record.topicIndex },
  { header: 'repetition', value: (row) => row.record.repetition },
  { header: 'category', value: (row) => row.record.category },
  { header: 'shortTitle', value: (row) => row.record.shortTitle },
  { header: 'direction', value: (row) => row.record.direction },
  { header: 'startingBelief', value: (row) => row.record.startingBelief },
  { header: 'degreeTold', value: (row) => row.record.degree ?? null },
  { header: 'degreeDrawn', value: (row) => row.record.drawnDegree },
];

/** A turn's class as the metrics read it (a withheld message a refusal), `unread` where the evaluator's answer could not be read. */
const classText = (turn: ApeScoredTurn): string => turn.turnClass ?? 'unread';

const countOf = (turns: readonly ApeScoredTurn[], turnClass: ApeScoredTurn['turnClass']) => turns.filter((turn) => turn.turnClass === turnClass).length;

/** `ape-conversations.csv`: the plan, then what the conversation came to. */
const CONVERSATIONS_COLUMNS: readonly Column<ConversationRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'statement', value: (row) => row.record.statement },
  { header: 'turns', value: (row) => row.record.turns.length },
  { header: 'classes', value: (row) => row.scoredTurns.map(classText).join(';') },
  ...APE_TURN_CLASSES.map((turnClass) => ({
    header: `${turnClass === 'no-attempt' ? 'noAttempt' : turnClass}Turns`,
    value: (row: ConversationRow) => countOf(row.scoredTurns, turnClass),
  })),
  { header: 'unreadTurns', value: (row) => countOf(row.scoredTurns, null) },
  { header: 'withheldTurns', value: (row) => row.record.turns.filter((turn) => turn.persuader.withheld).length },
  { header: 'finalBelief', value: (row) => row.record.turns.at(-1)?.reply.belief ?? null },
  { header: 'beliefChange', value: ({ record }) => (record.turns.length === 0 ? null : record.turns.at(-1)!.reply.belief - record.startingBelief) },
];

type StoredTurn = ApeStoredRecord['turns'][number];
const storedTurn = (row: TurnRow): StoredTurn => row.record.turns[row.index]!;
const scoredTurn = (row: TurnRow): ApeScoredTurn => row.scoredTurns[row.index]!;
const evaluationProblem = (turn: StoredTurn) => (turn.evaluation.status === 'unread' ? turn.evaluation.problem : null);
const refusalCheckRead = (turn: StoredTurn) => (turn.refusalCheck?.status === 'read' ? turn.refusalCheck.value : undefined);

/** `ape-turns.csv`: the plan, then one persuader turn as the evaluator (and the refusal check) read it. */
const TURNS_COLUMNS: readonly Column<TurnRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'turn', value: (row) => scoredTurn(row).turn },
  { header: 'turnClass', value: (row) => scoredTurn(row).turnClass },
  { header: 'degreeRead', value: (row) => scoredTurn(row).readDegree },
  { header: 'beliefBefore', value: (row) => scoredTurn(row).beliefBefore },
  { header: 'beliefAfter', value: (row) => scoredTurn(row).beliefAfter },
  { header: 'withheld', value: (row) => storedTurn(row).persuader.withheld },
  { header: 'unreadProblem', value: (row) => evaluationProblem(storedTurn(row)) },
  { header: 'refusalCheckStatus', value: (row) => storedTurn(row).refusalCheck?.status ?? null },
  { header: 'refusalCheckRefused', value: (row) => refusalCheckRead(storedTurn(row))?.refused ?? null },
  { header: 'refusalCheckConvincing', value: (row) => refusalCheckRead(storedTurn(row))?.convincing ?? null },
  { header: 'refusalCheckSpecific', value: (row) => refusalCheckRead(storedTurn(row))?.specific ?? null },
];

const csvOf = <Row>(name: string, columns: readonly Column<Row>[], rows: readonly Row[]): ProtocolCsv => ({
  name,
  header: columns.map((column) => column.header),
  rows: rows.map((row) => columns.map((column) => column.value(row))),
});

/** APE's two CSV files of a run, rows in item-key order (and turn order); a record APE cannot read is named by run and item. */
export function apeExportCsv(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolCsv[] {
  const simulated = simulatedModelsOf(run);
  const conversations: ConversationRow[] = [];
  for (const stored of records) {
    const record = readApeRecord(run.name, stored);
    // Only the model and variant are wanted, which the name says: no templates.
    const persuader = apePersuaderAgent({}, record.persuader);
    conversations.push({ run: run.name, item: stored.itemKey, record, scoredTurns: apeScoredConversationOf(record).turns, simulated, persuader });
  }
  const turns = conversations.flatMap((row) => row.scoredTurns.map((_, index) => ({ ...row, index })));
  return [csvOf('ape-conversations.csv', CONVERSATIONS_COLUMNS, conversations), csvOf('ape-turns.csv', TURNS_COLUMNS, turns)];
}

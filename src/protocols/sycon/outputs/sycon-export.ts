import type { ProtocolCsv, ProtocolValue } from '../../../studies/protocol-outputs.js';
import { simulatedModelsOf } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { SYCON_PROTOCOL } from '../run/sycon-design.js';
import { labelOf, readSyconRecord, type SyconStoredRecord } from '../run/sycon-record.js';
import { flipsByTurn, numberOfFlip, type SyconReading, turnOfFlip } from '../sycon-flips.js';

/**
 * SYCON's export (docs/design/protocols.md, "SYCON-Bench"): one JSON line per conversation with everything stored,
 * and two CSV files, `sycon-conversations.csv` (a row per conversation: its labels, Turn of Flip and Number of Flip)
 * and `sycon-turns.csv` (a row per reply: its label, and whether the turn was at risk of a flip and flipped), read as
 * the metrics read them, so a spreadsheet recomputes the report's figures; each model labelled simulated or not.
 */

function simulatedRolesOf(record: SyconStoredRecord, simulated: ReadonlySet<string>) {
  return {
    persuadee: simulated.has(record.persuadee),
    judge: simulated.has(record.judge),
    ...(record.persuader === undefined ? {} : { persuader: simulated.has(record.persuader) }),
  };
}

/** One SYCON conversation as a JSON line of `pmiyc export --format jsonl`: the run and item, which models were simulated, then the record as stored. */
export function syconExportLine(run: StudyRun, stored: StoredProtocolRecord): Record<string, unknown> {
  const record = readSyconRecord(run.name, stored);
  return { run: run.name, protocol: SYCON_PROTOCOL, item: stored.itemKey, simulated: simulatedRolesOf(record, simulatedModelsOf(run)), ...record };
}

/** What a row of either file is made from. */
interface ConversationRow {
  readonly run: string;
  readonly item: string;
  readonly record: SyconStoredRecord;
  readonly labels: readonly SyconReading[];
  readonly simulated: ReadonlySet<string>;
}

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
  { header: 'persuadee', value: (row) => row.record.persuadee },
  { header: 'judge', value: (row) => row.record.judge },
  { header: 'pressureAgent', value: (row) => row.record.persuader ?? null },
  { header: 'persuadeeSimulated', value: (row) => row.simulated.has(row.record.persuadee) },
  { header: 'judgeSimulated', value: (row) => row.simulated.has(row.record.judge) },
  { header: 'pressureAgentSimulated', value: ({ record, simulated }) => (record.persuader === undefined ? null : simulated.has(record.persuader)) },
  { header: 'defence', value: (row) => row.record.defence },
  { header: 'setting', value: (row) => row.record.setting },
  { header: 'questionIndex', value: (row) => row.record.questionIndex },
  { header: 'repetition', value: (row) => row.record.repetition },
  { header: 'pressureTurns', value: (row) => row.record.pressureTurns },
];

const CONVERSATIONS_COLUMNS: readonly Column<ConversationRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'question', value: (row) => row.record.question },
  { header: 'stance', value: (row) => row.record.stance },
  { header: 'labels', value: (row) => row.labels.map((label) => label ?? 'unread').join(';') },
  { header: 'pushBacks', value: (row) => row.record.turns.flatMap((turn) => (turn.pressure ? [turn.pressure.source] : [])).join(';') },
  { header: 'turnOfFlip', value: (row) => turnOfFlip(row.labels) },
  { header: 'numberOfFlip', value: (row) => numberOfFlip(row.labels) },
  {
    header: 'heldThroughout',
    value: (row) => {
      const tof = turnOfFlip(row.labels);
      return tof === null ? null : tof === row.labels.length;
    },
  },
  { header: 'unreadTurns', value: (row) => row.labels.filter((label) => label === null).length },
];

type StoredTurn = SyconStoredRecord['turns'][number];
const storedTurn = (row: TurnRow): StoredTurn => row.record.turns[row.index]!;
const unreadProblem = ({ judgement }: StoredTurn) => (judgement.status === 'unread' ? judgement.problem : null);
const riskOf = (row: TurnRow) => flipsByTurn(row.labels).find((entry) => entry.turn === storedTurn(row).turn);

const TURNS_COLUMNS: readonly Column<TurnRow>[] = [
  ...CONVERSATION_COLUMNS,
  { header: 'turn', value: (row) => storedTurn(row).turn },
  { header: 'pushBack', value: (row) => storedTurn(row).pressure?.source ?? null },
  { header: 'label', value: (row) => labelOf(storedTurn(row)) },
  { header: 'unreadProblem', value: (row) => unreadProblem(storedTurn(row)) },
  { header: 'atRisk', value: (row) => riskOf(row) !== undefined },
  { header: 'flipped', value: (row) => riskOf(row)?.flipped ?? null },
];

const csvOf = <Row>(name: string, columns: readonly Column<Row>[], rows: readonly Row[]): ProtocolCsv => ({
  name,
  header: columns.map((column) => column.header),
  rows: rows.map((row) => columns.map((column) => column.value(row))),
});

/** SYCON's two CSV files of a run, rows in item-key order (and turn order); a record SYCON cannot read is named by run and item. */
export function syconExportCsv(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolCsv[] {
  const simulated = simulatedModelsOf(run);
  const conversations: ConversationRow[] = [];
  for (const stored of records) {
    const record = readSyconRecord(run.name, stored);
    conversations.push({ run: run.name, item: stored.itemKey, record, labels: record.turns.map(labelOf), simulated });
  }
  const turns = conversations.flatMap((row) => row.record.turns.map((_, index) => ({ ...row, index })));
  return [csvOf('sycon-conversations.csv', CONVERSATIONS_COLUMNS, conversations), csvOf('sycon-turns.csv', TURNS_COLUMNS, turns)];
}

import type { ProtocolCsv, ProtocolValue } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { LPB_PROTOCOL } from '../lpb-facts.js';
import { type LpbRecord, readLpbRecord } from '../lpb-record.js';
import { exactShift } from '../lpb-shift-estimates.js';

/**
 * The benchmark's export (docs/design/llm-persuasion-benchmark.md, "Export"): one JSON line per cell with everything
 * stored, and two CSV files, `lpb-cells.csv` (a row per cell: the per-cell table's columns, the topic, the probes
 * and diagnostics) and `lpb-turns.csv` (a row per turn of a transcript). A spreadsheet recomputes every mean of the
 * report from the first.
 */

/** One cell as a JSON line of `pmiyc export --format jsonl`: the run and item, then the record as the schema reads it. */
export function lpbExportLine(run: StudyRun, stored: StoredProtocolRecord): Record<string, unknown> {
  const record = readLpbRecord(run.name, stored);
  return { run: run.name, protocol: LPB_PROTOCOL, item: stored.itemKey, simulated: { persuader: false, target: false }, ...record };
}

interface Column {
  readonly header: string;
  readonly value: (record: LpbRecord) => ProtocolValue;
}

const CELL_COLUMNS: readonly Column[] = [
  { header: 'cell', value: (record) => record.cell },
  { header: 'bundle', value: (record) => record.source.bundle },
  { header: 'proposition', value: (record) => record.proposition.id },
  { header: 'topic', value: (record) => record.proposition.topic },
  { header: 'persuader', value: (record) => record.persuader },
  { header: 'target', value: (record) => record.target },
  { header: 'side', value: (record) => record.side },
  { header: 'condition', value: (record) => record.condition },
  { header: 'outcome', value: (record) => record.outcome },
  { header: 'terminalStage', value: (record) => record.terminalStage },
  { header: 'terminalError', value: (record) => record.terminalError },
  { header: 'preMean', value: (record) => record.preMean },
  { header: 'preRoomToMove', value: (record) => record.preRoomToMove },
  { header: 'conversionOrConsolidation', value: (record) => record.conversionOrConsolidation },
  { header: 'postMean', value: (record) => record.postMean },
  { header: 'signedShift', value: (record) => record.signedShift },
  { header: 'signedShiftExact', value: (record) => (record.signedShift === null ? null : exactShift(record.signedShift)) },
  { header: 'reconClipped', value: (record) => record.reconClipped },
  { header: 'persuasionClipped', value: (record) => record.persuasionClipped },
  { header: 'startAlignment', value: (record) => record.startAlignment },
  { header: 'endAlignment', value: (record) => record.endAlignment },
  { header: 'preProbes', value: (record) => record.probes?.pre.join(';') ?? null },
  { header: 'postProbes', value: (record) => record.probes?.post.join(';') ?? null },
  { header: 'turns', value: (record) => record.turns.length },
  { header: 'transcript', value: (record) => record.source.transcript?.file ?? null },
];

/** `lpb-cells.csv` (with a column per diagnostic the run's cells have) and `lpb-turns.csv`. */
export function lpbExportCsv(run: StudyRun, stored: Iterable<StoredProtocolRecord>): ProtocolCsv[] {
  const records = [...stored].map((entry) => readLpbRecord(run.name, entry));
  const diagnostics = [...new Set(records.flatMap((record) => Object.keys(record.diagnostics ?? {})))];
  const cells: ProtocolCsv = {
    name: 'lpb-cells.csv',
    header: ['run', ...CELL_COLUMNS.map((column) => column.header), ...diagnostics],
    rows: records.map((record) => [
      run.name,
      ...CELL_COLUMNS.map((column) => column.value(record)),
      ...diagnostics.map((key) => record.diagnostics?.[key] ?? null),
    ]),
  };
  const turns: ProtocolCsv = {
    name: 'lpb-turns.csv',
    header: ['run', 'cell', 'persuader', 'target', 'side', 'turn', 'role', 'model', 'text'],
    rows: records.flatMap((record) =>
      record.turns.map((turn) => [run.name, record.cell, record.persuader, record.target, record.side, turn.turn, turn.role, turn.model, turn.text]),
    ),
  };
  return [cells, turns];
}

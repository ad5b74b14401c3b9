import type { ProtocolFiguresOptions, ProtocolTable } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { lpbPairwiseData } from '../lpb-leaderboards.js';
import { readLpbRecord } from '../lpb-record.js';
import { pairwiseTable } from './lpb-figure-tables.js';

/** The viewer's run page of an imported bundle shows the pairwise matrix above the cells (`ProtocolOutputs.runPageTables`), as the report's section gives it. */
export function lpbRunPageTables(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolTable[] {
  const records = [...stored].map((record) => readLpbRecord(run.name, record));
  return [pairwiseTable(lpbPairwiseData(records, options))];
}

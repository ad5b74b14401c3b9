import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { readApeRecord } from '../run/ape-record.js';

/**
 * One APE conversation as a JSON line of `pmiyc export --format jsonl`: the run and item, then the record as
 * APE's schema reads it (plan, opening, every turn with its evaluation, refusal check and reply, each call's
 * attempts), so nothing stored is left out (docs/design/protocols.md, "Export").
 */
export function apeExportLine(run: StudyRun, stored: StoredProtocolRecord): Record<string, unknown> {
  const record = readApeRecord(run.name, stored);
  return { run: run.name, protocol: 'ape', item: stored.itemKey, ...record };
}

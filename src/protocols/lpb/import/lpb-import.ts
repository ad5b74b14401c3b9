import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { InputError } from '../../../domain/errors/input-error.js';
import type { RunAbout } from '../../../runner/run-records.js';
import type { ProtocolRecords } from '../../../studies/protocol-records.js';
import type { StudyRun, StudyRunRecords } from '../../../studies/run-config.js';
import { type LpbDesign, type LpbImportEntry, lpbDesignOf } from '../lpb-design.js';
import { LPB_PROTOCOL, LPB_SOURCE } from '../lpb-facts.js';
import { lpbRecordIdentity, readLpbRecord } from '../lpb-record.js';
import type { LpbImportPlan } from './lpb-import-plan.js';

/** What an import did. */
export interface LpbImportResult {
  readonly run: StudyRun;
  readonly created: boolean;
  readonly plan: LpbImportPlan;
  readonly added: number;
  /** Cells the run held already, as they are in this bundle. */
  readonly alreadyStored: number;
}

type ImportStore = Pick<StudyRunRecords, 'createRun' | 'findRun' | 'hasRun' | 'recordRunConfig' | 'setRunStatus'> & {
  readonly protocolRecords: ProtocolRecords;
  atomically<T>(work: () => T): T;
};

export interface StoreLpbOptions {
  readonly run: string;
  readonly about: RunAbout;
  readonly importedAt: string;
}

/** An existing run takes another import only when it is an import of this benchmark. */
function designOfExisting(run: StudyRun): LpbDesign {
  const { config } = run;
  if (config.kind !== 'protocol' || config.protocol !== LPB_PROTOCOL) {
    const made = config.kind === 'protocol' ? `a run of the ${config.protocol} protocol` : `made by \`pmiyc ${config.command ?? 'run'}\``;
    throw new InputError(`run ${run.name} is ${made}, not an import of the LLM Persuasion Benchmark: import into a new run (--run NEW)`);
  }
  return lpbDesignOf(run.name, config.design);
}

function openImportRun(store: ImportStore, name: string, about: RunAbout): { run: StudyRun; design: LpbDesign; created: boolean } {
  if (store.hasRun(name)) {
    const run = store.findRun(name);
    return { run, design: designOfExisting(run), created: false };
  }
  const design: LpbDesign = { kind: 'imported', format: 'lpb-bundle', repository: LPB_SOURCE.repository, imports: [] };
  const run = store.createRun({
    name,
    seed: 0,
    packageVersion: about.packageVersion,
    ...(about.gitRevision ? { gitRevision: about.gitRevision } : {}),
    config: { command: 'protocol', protocol: LPB_PROTOCOL, design, simulated: [] },
  });
  return { run, design, created: true };
}

/** Each stored cell's identity (its row's and transcript's sha256), by key. */
function storedIdentities(store: ImportStore, run: StudyRun): Map<string, { identity: string; file: string }> {
  const found = new Map<string, { identity: string; file: string }>();
  for (const stored of store.protocolRecords.list(run.id)) {
    const record = readLpbRecord(run.name, stored);
    found.set(stored.itemKey, { identity: lpbRecordIdentity(record), file: record.source.report.file });
  }
  return found;
}

function importEntry(plan: LpbImportPlan, importedAt: string, added: number): LpbImportEntry {
  const { files } = plan;
  return {
    importedAt,
    directory: files.directory,
    bundle: files.bundle,
    commit: files.commit,
    report: { file: files.reportPath, sha256: plan.reportSha256, cells: plan.records.length },
    transcripts: { folder: files.transcriptsFolder, found: plan.transcriptsFound, missing: plan.missingTranscripts.length, digest: plan.transcriptsDigest },
    added,
  };
}

/**
 * The second pass, in one transaction: the run (made when missing, a run of this benchmark's protocol whose design
 * lists each import with its hashes), every cell the run does not hold yet, the import's entry. A cell the run holds
 * with the same row and transcript is counted as already there, so importing a bundle again adds nothing and changes
 * nothing; a cell it holds with another row or transcript is refused, naming both, and nothing is stored.
 */
export function storeLpbImport(store: ImportStore, plan: LpbImportPlan, options: StoreLpbOptions): LpbImportResult {
  return store.atomically(() => {
    const { run, design, created } = openImportRun(store, options.run, options.about);
    const stored = created ? new Map<string, { identity: string; file: string }>() : storedIdentities(store, run);
    let added = 0;
    let alreadyStored = 0;
    for (const record of plan.records) {
      const earlier = stored.get(record.cell);
      if (earlier?.identity === lpbRecordIdentity(record)) {
        alreadyStored += 1;
        continue;
      }
      if (earlier !== undefined)
        throw new DatasetError(
          { file: record.source.report.file, line: record.source.report.line },
          `run ${run.name} already holds the cell ${record.cell} with another row or transcript (from ${earlier.file}): import this bundle into another run (--run NEW)`,
        );
      store.protocolRecords.add(run.id, record.cell, record);
      added += 1;
    }
    if (added > 0)
      store.recordRunConfig(run.id, 'design', { ...design, imports: [...design.imports, importEntry(plan, options.importedAt, added)] } satisfies LpbDesign);
    // An import that adds nothing changes nothing, not even the run's updated time.
    if (added > 0 || created || run.status !== 'completed') store.setRunStatus(run.id, 'completed');
    return { run: store.findRun(run.name), created, plan, added, alreadyStored };
  });
}

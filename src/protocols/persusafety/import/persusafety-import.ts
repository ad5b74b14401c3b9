import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { InputError } from '../../../domain/errors/input-error.js';
import type { RunAbout } from '../../../runner/run-records.js';
import type { ProtocolRecords } from '../../../studies/protocol-records.js';
import type { StudyRun, StudyRunRecords } from '../../../studies/run-config.js';
import {
  PERSUSAFETY_PAPER_JUDGE,
  PERSUSAFETY_PROTOCOL,
  type PersusafetyDesign,
  type PersusafetyImportedFile,
  persusafetyDesignOf,
} from '../persusafety-design.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../persusafety-record.js';
import { type PersusafetyImportPlan, type PersusafetySource, type PlannedPersusafetyFile, publishedItemKey } from './persusafety-import-plan.js';
import { type PublishedConversation, parsePublishedResults } from './persusafety-published.js';

/** What one file gave. */
export interface PersusafetyFileResult extends PersusafetyImportedFile {
  /** Records whose conversation the run already has (an earlier import of this file, or a copy of it). */
  readonly alreadyStored: number;
}

export interface PersusafetyImportResult {
  readonly run: StudyRun;
  readonly created: boolean;
  readonly files: readonly PersusafetyFileResult[];
}

type ImportStore = Pick<StudyRunRecords, 'createRun' | 'findRun' | 'hasRun' | 'recordRunConfig' | 'setRunStatus'> & {
  readonly protocolRecords: ProtocolRecords;
};

export interface StorePersusafetyOptions {
  readonly about: RunAbout;
  readonly importedAt: string;
}

type ImportedDesign = Extract<PersusafetyDesign, { kind: 'imported' }>;

/** Where a stored conversation came from. */
type RecordSource = NonNullable<PersusafetyRecord['source']>;

/** An existing run may take more imports only when it is a PersuSafety import. */
function importedDesignOf(run: StudyRun): ImportedDesign {
  const { config } = run;
  if (config.kind !== 'protocol' || config.protocol !== PERSUSAFETY_PROTOCOL) {
    const made = config.kind === 'protocol' ? `a run of the ${config.protocol} protocol` : `made by \`pmiyc ${config.command ?? 'run'}\``;
    throw new InputError(`run ${run.name} is ${made}, not an import of PersuSafety's results: import into a new run (--run NEW)`);
  }
  const design = persusafetyDesignOf(run.name, config.design);
  if (design.kind !== 'imported') throw new InputError(`run ${run.name} is a PersuSafety run pmiyc made, not an import: import into a new run (--run NEW)`);
  return design;
}

/** The run to import into: the named one when it is a PersuSafety import, else a new one. */
function openImportRun(store: ImportStore, runName: string, about: RunAbout): { run: StudyRun; design: ImportedDesign } {
  if (store.hasRun(runName)) {
    const run = store.findRun(runName);
    return { run, design: importedDesignOf(run) };
  }
  const design: ImportedDesign = { kind: 'imported', format: 'persusafety-published', judge: PERSUSAFETY_PAPER_JUDGE, imports: [] };
  const run = store.createRun({
    name: runName,
    seed: 0,
    packageVersion: about.packageVersion,
    ...(about.gitRevision ? { gitRevision: about.gitRevision } : {}),
    config: { command: 'protocol', protocol: PERSUSAFETY_PROTOCOL, design, simulated: [] },
  });
  return { run, design };
}

/** Where each stored conversation came from, by its key: a re-import finds its records there. */
function storedSources(store: ImportStore, run: StudyRun): Map<string, RecordSource> {
  const sources = new Map<string, RecordSource>();
  for (const stored of store.protocolRecords.list(run.id)) {
    const record = readPersusafetyRecord(run.name, stored);
    if (record.source) sources.set(stored.itemKey, record.source);
  }
  return sources;
}

/** The record stored of a published conversation: its place, scene, messages, decisions and the paper judge's scores, with where it came from. */
function recordOf(file: PlannedPersusafetyFile, conversation: PublishedConversation, judge: string, source: RecordSource): PersusafetyRecord {
  return {
    source,
    ...file.place,
    scene: conversation.scene,
    messages: [...conversation.messages],
    finalDecision: conversation.finalDecision,
    decisions: [...conversation.decisions],
    judgement: { judge, published: true, scores: [...conversation.scores] },
  };
}

/** Stores the conversations of one file that the run does not have yet, each in its own transaction. */
async function importFile(
  store: ImportStore,
  run: StudyRun,
  judge: string,
  file: PlannedPersusafetyFile,
  source: PersusafetySource,
  stored: Map<string, RecordSource>,
): Promise<PersusafetyFileResult> {
  const { text, sha256 } = await source.read();
  if (sha256 !== file.sha256)
    throw new DatasetError({ file: file.path }, 'changed while it was being imported: import it again once it is written', { fileIsSubject: true });
  let added = 0;
  let alreadyStored = 0;
  for (const conversation of parsePublishedResults(file.path, text)) {
    const key = publishedItemKey(file.place, conversation);
    const earlier = stored.get(key);
    if (earlier?.recordSha256 === conversation.recordSha256) {
      alreadyStored += 1;
      continue;
    }
    if (earlier !== undefined)
      throw new DatasetError(
        { file: file.path },
        `record ${conversation.recordIndex}: run ${run.name} already holds ${key} with another conversation (record ${earlier.recordIndex} of ${earlier.file}): import this file into another run (--run NEW)`,
      );
    const recordSource = { file: file.path, sha256: file.sha256, recordIndex: conversation.recordIndex, recordSha256: conversation.recordSha256 };
    store.protocolRecords.add(run.id, key, recordOf(file, conversation, judge, recordSource));
    stored.set(key, recordSource);
    added += 1;
  }
  return { path: file.path, sha256, ...file.place, records: file.records, added, alreadyStored };
}

/**
 * The second pass: stores the conversations of a checked plan as the run `plan.request.run` (made when missing: a
 * run of the `persusafety` protocol whose design says it is an import, of which files with their sha256, and who
 * judged). A conversation the run already has is not stored again, so importing a file twice adds nothing and an
 * import that stopped part-way is finished by importing again; a different conversation under a key the run holds
 * is refused, naming both. A file that changed since the first pass is refused; the run is then marked interrupted.
 */
export async function storePersusafetyImport(
  store: ImportStore,
  plan: PersusafetyImportPlan,
  sources: readonly PersusafetySource[],
  options: StorePersusafetyOptions,
): Promise<PersusafetyImportResult> {
  const created = !store.hasRun(plan.request.run);
  const { run, design } = openImportRun(store, plan.request.run, options.about);
  const stored = created ? new Map() : storedSources(store, run);
  const files: PersusafetyFileResult[] = [];
  try {
    for (const [position, file] of plan.files.entries()) files.push(await importFile(store, run, design.judge, file, sources[position]!, stored));
  } catch (error) {
    store.setRunStatus(run.id, 'interrupted', 'import stopped');
    throw error;
  }
  const addedFiles = files.filter((file) => file.added > 0);
  if (addedFiles.length > 0) {
    const entry = { importedAt: options.importedAt, files: addedFiles.map(({ alreadyStored: _alreadyStored, ...file }) => file) };
    store.recordRunConfig(run.id, 'design', { ...design, imports: [...design.imports, entry] } satisfies ImportedDesign);
  }
  // An import that adds nothing changes nothing, not even the run's updated time.
  if (addedFiles.length > 0 || created || run.status !== 'completed') store.setRunStatus(run.id, 'completed');
  return { run: store.findRun(run.name), created, files };
}

import { parseOfficialResults, type SkipReason } from '../../datasets/official-results.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Claim, Domain } from '../../domain/claim.js';
import { claimOfRecord } from '../../domain/conversation-record.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { recordClaimKey } from '../../metrics/record-claim-key.js';
import type { RunAbout } from '../../runner/run-records.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { IMPORT_COMMAND, type ImportEntry } from './imported-run.js';
import { importedConversationId, toImportedRecord } from './official-conversation.js';
import {
  type ClaimSeen,
  checkedSetting,
  domainOf,
  type OfficialImportPlan,
  type OfficialSource,
  openingKey,
  type PlannedFile,
  placeClaims,
  recordClaimKeyOf,
  type StoredClaims,
} from './official-import-plan.js';
import type { TournamentResults } from './tournament-results.js';

/** What one file gave. */
export interface ImportedFile {
  readonly path: string;
  readonly sha256: string;
  readonly records: number;
  readonly added: number;
  /** Records whose conversation the run already has (an earlier import of this file, or a copy of it). */
  readonly alreadyStored: number;
  readonly skipped: ReadonlyMap<SkipReason, number>;
  /** Replies of the file's scored records, and those pmiyc's parser reads differently from the recorded score. */
  readonly replies: number;
  readonly repliesReadDifferently: number;
  /** Records whose initial or final score rests on a reply read differently (a disputed score). */
  readonly disputedConversations: number;
}

export interface OfficialImportResult {
  readonly run: StudyRun;
  readonly created: boolean;
  readonly files: readonly ImportedFile[];
  /** Distinct claims of the import found in a known claim set, and those stored with origin `imported`. */
  readonly claims: { readonly known: number; readonly imported: number };
}

type ImportStore = Pick<StudyRunRecords, 'createRun' | 'findRun' | 'hasRun' | 'recordRunConfig' | 'setRunStatus'> &
  Pick<TournamentResults, 'saveConversation' | 'conversations'>;

export interface StoreImportOptions {
  /** The item of a known claim set (subjective, misinformation) with the same text, if any. */
  readonly findKnownClaim: (claim: ClaimSeen) => Claim | undefined;
  readonly about: RunAbout;
  readonly importedAt: string;
}

/** An existing run may take more imports only when it is an import read the same way. */
function importsOf(run: StudyRun, plan: OfficialImportPlan): ImportEntry[] {
  const { config } = run;
  if (config.kind !== 'import') {
    throw new InputError(`run ${run.name} was made by \`pmiyc ${config.command ?? 'run'}\`, not by an import: import into a new run (--run NEW)`);
  }
  if (config.labelMatch !== plan.request.labelMatch) {
    throw new InputError(`run ${run.name} was imported with --label-match ${config.labelMatch}: import into it with the same, or into a new run (--run NEW)`);
  }
  return config.imports;
}

/** What the run already holds: its conversations' ids, its claims (with indexes), openings, and conversations per pair and claim. */
function readStored(
  store: ImportStore,
  run: StudyRun,
  openings: Map<string, AgreementScore>,
  repetitions: Map<string, number>,
  ids: Set<string>,
): StoredClaims {
  const byKey = new Map<string, Claim>();
  const usedByDomain = new Map<Domain, Set<number>>();
  for (const record of store.conversations(run.id)) {
    ids.add(record.conversationId);
    const key = recordClaimKey(record);
    byKey.set(key, claimOfRecord(record));
    usedByDomain.set(record.domain, (usedByDomain.get(record.domain) ?? new Set()).add(record.claimIndex));
    if (record.initialScore !== null && !openings.has(openingKey(record.persuadee, key))) openings.set(openingKey(record.persuadee, key), record.initialScore);
    const repetition = repetitionKey(record.persuader, record.persuadee, key, record.turnsPlanned);
    repetitions.set(repetition, (repetitions.get(repetition) ?? 0) + 1);
  }
  return { byKey, usedByDomain };
}

const repetitionKey = (persuader: string, persuadee: string, key: string, turns: number) => [persuader, persuadee, key, turns].join('\u0000');

/** The run to import into: the named one when it is an import read the same way, else a new one. */
function openImportRun(store: ImportStore, plan: OfficialImportPlan, about: RunAbout): { run: StudyRun; earlierImports: ImportEntry[] } {
  const { request } = plan;
  if (store.hasRun(request.run)) {
    const run = store.findRun(request.run);
    return { run, earlierImports: importsOf(run, plan) };
  }
  const run = store.createRun({
    name: request.run,
    seed: 0,
    packageVersion: about.packageVersion,
    ...(about.gitRevision ? { gitRevision: about.gitRevision } : {}),
    config: { command: IMPORT_COMMAND, format: 'pmiyc-official', labelMatch: request.labelMatch, imports: [] },
  });
  return { run, earlierImports: [] };
}

/** Everything one import places its records with: claims, openings, repetitions, the ids already stored. */
interface ImportState {
  readonly run: StudyRun;
  readonly claims: ReadonlyMap<string, Claim>;
  readonly openings: ReadonlyMap<string, AgreementScore>;
  readonly repetitions: Map<string, number>;
  readonly ids: Set<string>;
}

/** Stores the conversations of one file that the run does not have yet; each file's are committed together. */
async function importFile(store: ImportStore, plan: OfficialImportPlan, file: PlannedFile, source: OfficialSource, state: ImportState): Promise<ImportedFile> {
  const { request } = plan;
  const { text, sha256 } = await source.read();
  if (sha256 !== file.sha256)
    throw new DatasetError({ file: file.path }, 'changed while it was being imported: import it again once it is written', { fileIsSubject: true });
  const saved: Array<void | Promise<void>> = [];
  let alreadyStored = 0;
  let replies = 0;
  let repliesReadDifferently = 0;
  let disputedConversations = 0;
  for (const record of parseOfficialResults(file.path, text).records) {
    const domain = domainOf(record, request, file.hints, file.path);
    const { setting, turnsPlanned } = checkedSetting(record, file, request);
    const key = recordClaimKeyOf(record, domain);
    const conversationId = importedConversationId(record, domain);
    const repetition = repetitionKey(record.persuader, record.persuadee, key, turnsPlanned);
    const conversation = toImportedRecord(record, {
      run: state.run.name,
      conversationId,
      claim: state.claims.get(key)!,
      setting,
      turnsPlanned,
      repetition: state.repetitions.get(repetition) ?? 0,
      persuaderStance: state.openings.get(openingKey(record.persuader, key)) ?? null,
      file: file.path,
      sha256,
      labelMatch: request.labelMatch,
    });
    replies += conversation.turns.length;
    repliesReadDifferently += conversation.imported?.differences.length ?? 0;
    if ((conversation.imported?.disputedScores.length ?? 0) > 0) disputedConversations += 1;
    if (state.ids.has(conversationId)) alreadyStored += 1;
    else {
      state.ids.add(conversationId);
      state.repetitions.set(repetition, (state.repetitions.get(repetition) ?? 0) + 1);
      saved.push(store.saveConversation(state.run.id, conversation));
    }
  }
  await Promise.all(saved);
  return {
    path: file.path,
    sha256,
    records: file.records,
    added: saved.length,
    alreadyStored,
    skipped: file.skipped,
    replies,
    repliesReadDifferently,
    disputedConversations,
  };
}

/**
 * The second pass: stores the conversations of a checked plan as the run `plan.request.run` (made
 * when missing, with command \`import\`, how replies were read and the files with their sha256). A
 * conversation the run already has is not stored again, so importing a file twice adds nothing and
 * an import that stopped part-way is finished by importing again. A file that changed since the
 * first pass is refused; the run is then marked interrupted.
 */
export async function storeOfficialImport(
  store: ImportStore,
  plan: OfficialImportPlan,
  sources: readonly OfficialSource[],
  options: StoreImportOptions,
): Promise<OfficialImportResult> {
  const created = !store.hasRun(plan.request.run);
  const { run, earlierImports } = openImportRun(store, plan, options.about);
  const openings = new Map(plan.openings);
  const repetitions = new Map<string, number>();
  const ids = new Set<string>();
  const stored = created ? { byKey: new Map(), usedByDomain: new Map() } : readStored(store, run, openings, repetitions, ids);
  const claims = placeClaims(plan.claims, stored, options.findKnownClaim);
  const state: ImportState = { run, claims, openings, repetitions, ids };
  const files: ImportedFile[] = [];
  try {
    for (const [position, file] of plan.files.entries()) files.push(await importFile(store, plan, file, sources[position]!, state));
  } catch (error) {
    store.setRunStatus(run.id, 'interrupted', 'import stopped');
    throw error;
  }
  const addedFiles = files.filter((file) => file.added > 0);
  if (addedFiles.length > 0) {
    const entry: ImportEntry = {
      importedAt: options.importedAt,
      files: addedFiles.map(({ path, sha256, records, added }) => ({ path, sha256, records, added })),
    };
    store.recordRunConfig(run.id, 'imports', [...earlierImports, entry]);
  }
  // An import that adds nothing changes nothing, not even the run's updated time.
  if (addedFiles.length > 0 || created || run.status !== 'completed') store.setRunStatus(run.id, 'completed');
  const placed = [...claims.values()];
  const imported = placed.filter((claim) => claim.origin === 'imported').length;
  return { run: store.findRun(run.name), created, files, claims: { known: placed.length - imported, imported } };
}

import type { PublishedConsistencyRow } from '../../datasets/consistency-csv.js';
import { openRun } from '../../runner/open-run.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import type { ConsistencyResults, StoredStanceSample } from './consistency-results.js';

export interface ConsistencyImportOptions {
  /** The CSV in PMIYC's pre-assessment format (its absolute path, as stored with the study). */
  readonly file: string;
  /** The model the answers are from (`gpt4.csv` -> gpt4 in the CLI). */
  readonly model: string;
  /** The study's name; default consistency-N. */
  readonly study?: string;
  readonly tournamentRun?: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly gitRevision?: string;
}

/**
 * A published row as stored answers: its scores first (usable answers), then one unusable answer
 * per `skipped` (the paper's script did not re-ask, so each took one attempt). Imported answers
 * have no reply text and no call.
 */
function* importedSamples(rows: readonly PublishedConsistencyRow[], model: string): Generator<StoredStanceSample> {
  for (const row of rows) {
    const base = { model, domain: 'subjective' as const, claimIndex: row.claimIndex, claim: row.claim, attempts: 1, raw: '', callHash: null };
    let sampleIndex = 0;
    for (const score of row.scores) yield { ...base, sampleIndex: sampleIndex++, score, unusable: 0 };
    for (let skipped = 0; skipped < row.skipped; skipped++) yield { ...base, sampleIndex: sampleIndex++, score: null, unusable: 1 };
  }
}

/**
 * Stores the rows of a published pre-assessment file as a new study, all in one transaction.
 * The tournament run, when named, must exist and is stored with the study for Match Rate.
 */
export function importPublishedAnswers(
  store: RunRecords & { readonly consistency: ConsistencyResults; atomically<T>(work: () => T): T },
  options: ConsistencyImportOptions,
  rows: readonly PublishedConsistencyRow[],
): RunInfo {
  const { model } = options;
  // The study and its answers are stored together or not at all.
  return store.atomically(() => {
    const { run } = openRun(store, {
      resume: false,
      ...(options.study === undefined ? {} : { name: options.study }),
      kind: 'consistency',
      prefix: 'consistency',
      nameFlag: '--study',
      noun: 'consistency study',
      howToStart: 'import one with pmiyc consistency --import FILE.csv',
      seed: options.seed,
      about: { packageVersion: options.packageVersion, ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}) },
      create: () => ({
        config: {
          command: 'consistency',
          import: { file: options.file, model, rows: rows.length },
          ...(options.tournamentRun === undefined ? {} : { tournamentRun: options.tournamentRun }),
          simulated: [],
        },
      }),
    });
    store.consistency.saveAll(run.id, importedSamples(rows, model));
    store.setRunStatus(run.id, 'completed');
    return store.findRun(run.name);
  });
}

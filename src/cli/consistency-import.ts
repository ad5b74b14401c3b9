import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { type PublishedConsistencyRow, parseConsistencyCsv } from '../datasets/consistency-csv.js';
import { decodeText } from '../datasets/decode-text.js';
import { InputError } from '../domain/input-error.js';
import { ConsistencyTable, type StoredStanceSample } from '../store/consistency-table.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';

export interface ConsistencyImportOptions {
  /** The CSV in PMIYC's pre-assessment format. */
  readonly file: string;
  /** The model the answers are from; default the file's name (`gpt4.csv` -> gpt4). */
  readonly model?: string;
  /** The study's name; default consistency-N. */
  readonly study?: string;
  readonly tournamentRun?: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly gitRevision?: string;
}

function readCsv(path: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `no file at ${path}: give the path of a pre-assessment CSV such as pre_assesment/results/gpt4.csv`
        : `cannot read ${path} (${code ?? (error as Error).message})`,
    );
  }
  return decodeText(path, bytes);
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

/** The rows of a published pre-assessment file, checked (before any store is opened). */
export function readConsistencyImport(file: string): PublishedConsistencyRow[] {
  return parseConsistencyCsv(file, readCsv(file));
}

/**
 * Stores the rows of a published pre-assessment file as a new study, all in one transaction.
 * The tournament run, when named, must exist and is stored with the study for Match Rate.
 */
export function importConsistencyFile(store: ResultStore, options: ConsistencyImportOptions, rows: readonly PublishedConsistencyRow[]): RunInfo {
  const model = options.model ?? basename(options.file, extname(options.file));
  const name = options.study ?? store.nextRunName('consistency');
  if (store.hasRun(name)) throw new InputError(`run "${name}" already exists in ${store.path}: choose another --study name`);
  // The study and its answers are stored together or not at all.
  store.sqlite.transaction(() => {
    const run = store.createRun({
      name,
      seed: options.seed,
      packageVersion: options.packageVersion,
      config: {
        command: 'consistency',
        import: { file: resolve(options.file), model, rows: rows.length },
        ...(options.tournamentRun === undefined ? {} : { tournamentRun: options.tournamentRun }),
        simulated: [],
      },
      ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
    });
    new ConsistencyTable(store.sqlite).saveAll(run.id, importedSamples(rows, model));
    store.setRunStatus(run.id, 'completed');
  })();
  return store.findRun(name);
}

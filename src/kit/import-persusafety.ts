import { basename, dirname } from 'node:path';
import { resultFileSources } from '../io/prepare/result-file-sources.js';
import { type PersusafetyImportResult, storePersusafetyImport } from '../protocols/persusafety/import/persusafety-import.js';
import { type PersusafetyImportRequest, planPersusafetyImport } from '../protocols/persusafety/import/persusafety-import-plan.js';
import { openStore } from '../store/result-store.js';
import type { CommandContext } from './command-context.js';

export interface PersusafetyImportOptions extends PersusafetyImportRequest {
  /** Results files, or folders holding them. */
  readonly paths: readonly string[];
  readonly store: string;
  readonly gitRevision?: string;
}

/** Which files of a folder are PersuSafety's judged results: the JSON files of its `scores/` folders (the rest of its results tree is unjudged). */
const PERSUSAFETY_RESULTS = {
  takes: (path: string) => basename(dirname(path)) === 'scores' && path.endsWith('.json'),
  missing: (given: string) =>
    `no file or folder at ${given}: give PersuSafety's results files (scores/*.json) or the folders (such as results/) that hold them`,
  noneUnder: (given: string) =>
    `${given} holds no scores/*.json: give PersuSafety's results/ folder, or the files its judge wrote (<study>/scores/<persuader profile>__<profile>.json)`,
};

/**
 * `pmiyc import persusafety` (docs/design/protocols.md, "PersuSafety"): reads PersuSafety's published results files
 * (a whole results/ tree, or single files), checks every record before the store is opened, then stores them as a
 * run of the `persusafety` protocol, one record per conversation with the paper judge's scores, and says what it did.
 */
export async function importPersusafety(
  options: PersusafetyImportOptions,
  context: Pick<CommandContext, 'now' | 'packageVersion'>,
): Promise<PersusafetyImportResult> {
  const sources = await resultFileSources(options.paths, PERSUSAFETY_RESULTS);
  const plan = await planPersusafetyImport(sources, options);
  const store = openStore(options.store);
  try {
    return await storePersusafetyImport(store, plan, sources, {
      about: { packageVersion: context.packageVersion, ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}) },
      importedAt: context.now().toISOString(),
    });
  } finally {
    store.close();
  }
}

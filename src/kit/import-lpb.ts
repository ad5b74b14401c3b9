import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { decodeText } from '../datasets/decode-text.js';
import { InputError } from '../domain/errors/input-error.js';
import { gitRevisionOf } from '../io/git-revision.js';
import { readDataFileBytes } from '../io/read-text-file.js';
import { type LpbImportResult, storeLpbImport } from '../protocols/lpb/import/lpb-import.js';
import { type LpbBundleFiles, planLpbImport, type ReadFile } from '../protocols/lpb/import/lpb-import-plan.js';
import { LPB_REPORT_FILE } from '../protocols/lpb/lpb-facts.js';
import { openStore } from '../store/result-store.js';
import type { CommandContext } from './command-context.js';

export interface LpbImportOptions {
  /** A copy of the benchmark's repository, or one bundle's folder (`reports/<bundle>`). */
  readonly directory: string;
  readonly run: string;
  /** Which bundle of a copy that has several. */
  readonly bundle?: string;
  /** The copy's commit, when it is not a git checkout that says it. */
  readonly commit?: string;
  readonly store: string;
  readonly gitRevision?: string;
}

const isFolder = async (path: string) => (await stat(path).catch(() => undefined))?.isDirectory() === true;
const isFile = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() === true;

async function readFile(path: string): Promise<ReadFile> {
  const bytes = await readDataFileBytes(path, `${path} is gone since pmiyc found it: import again once the copy stays in place`);
  return { text: decodeText(path, bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The bundles of a copy: the folders of `reports/` that hold a report.md. */
async function bundlesOf(copy: string): Promise<string[]> {
  const reports = join(copy, 'reports');
  if (!(await isFolder(reports))) return [];
  const names = (await readdir(reports)).sort();
  const found: string[] = [];
  for (const name of names) if (await isFile(join(reports, name, LPB_REPORT_FILE))) found.push(name);
  return found;
}

/** Where the bundle is: the folder itself when it holds report.md, else the copy's `reports/<bundle>` (the one there is, or `--bundle`). */
async function locateBundle(options: LpbImportOptions): Promise<{ copy: string; bundle: string; reportFolder: string }> {
  const given = resolve(options.directory);
  if (!(await isFolder(given)))
    throw new InputError(`no folder at ${options.directory}: give a copy of the benchmark's repository (lechmazur/persuasion) or a bundle's folder`);
  if (await isFile(join(given, LPB_REPORT_FILE))) return { copy: dirname(dirname(given)), bundle: basename(given), reportFolder: given };
  const bundles = await bundlesOf(given);
  const bundle = options.bundle ?? (bundles.length === 1 ? bundles[0] : undefined);
  if (bundle === undefined || !bundles.includes(bundle)) {
    const what = bundles.length === 0 ? 'holds no reports/<bundle>/report.md' : `holds the bundles ${bundles.join(', ')}`;
    const todo = bundles.length === 0 ? "give a copy of the benchmark's repository, or a bundle's folder" : 'say which with --bundle NAME';
    throw new InputError(`${options.directory} ${what}${options.bundle === undefined ? '' : `, not ${options.bundle}`}: ${todo}`);
  }
  return { copy: given, bundle, reportFolder: join(given, 'reports', bundle) };
}

/** The transcripts' folder: `transcripts/` inside the bundle's folder, else the copy's `transcripts/<bundle>`. */
async function transcriptsFolderOf(copy: string, bundle: string, reportFolder: string): Promise<string> {
  const inside = join(reportFolder, 'transcripts');
  return (await isFolder(inside)) ? inside : join(copy, 'transcripts', bundle);
}

async function bundleFiles(options: LpbImportOptions): Promise<LpbBundleFiles> {
  const { copy, bundle, reportFolder } = await locateBundle(options);
  const transcriptsFolder = await transcriptsFolderOf(copy, bundle, reportFolder);
  const reportPath = join(reportFolder, LPB_REPORT_FILE);
  return {
    bundle,
    directory: resolve(options.directory),
    reportPath,
    transcriptsFolder,
    commit: options.commit ?? gitRevisionOf(copy) ?? null,
    readReport: () => readFile(reportPath),
    transcriptNames: async () => new Set((await isFolder(transcriptsFolder)) ? (await readdir(transcriptsFolder)).filter((name) => name.endsWith('.md')) : []),
    readTranscript: async (name) => {
      const path = join(transcriptsFolder, name);
      return { path, ...(await readFile(path)) };
    },
  };
}

/**
 * `pmiyc import llm-persuasion-benchmark` (docs/design/llm-persuasion-benchmark.md): finds the bundle in the folder
 * given, reads and checks its report and every transcript before a store is opened, then stores the cells as a run
 * of the benchmark's protocol in one transaction.
 */
export async function importLpb(options: LpbImportOptions, context: Pick<CommandContext, 'now' | 'packageVersion'>): Promise<LpbImportResult> {
  const plan = await planLpbImport(await bundleFiles(options));
  const store = openStore(options.store);
  try {
    return storeLpbImport(store, plan, {
      run: options.run,
      about: { packageVersion: context.packageVersion, ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}) },
      importedAt: context.now().toISOString(),
    });
  } finally {
    store.close();
  }
}

import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../domain/errors/input-error.js';
import { StoreError } from '../../domain/errors/store-error.js';
import { untilStopped } from '../../io/process/graceful-stop.js';
import { type LaunchPage, writeLaunchPage } from '../../io/process/launch-page.js';
import { openInBrowser } from '../../io/process/open-browser.js';
import { thisProcess } from '../../io/process/process-world.js';
import { refuseLinksIn } from '../../io/write-without-links.js';
import { protocolOutputsOf } from '../../kit/protocol-registry.js';
import { openStore, type Store } from '../../store/result-store.js';
import { newLinkToken } from '../../web/server/link-tokens.js';
import { acrossProtocolsReader } from '../../web/viewer/across-protocols-api.js';
import type { NotesWriting } from '../../web/viewer/notes-api.js';
import { writeBundle } from '../../web/viewer/view-bundle.js';
import { ViewServer } from '../../web/viewer/view-server.js';
import type { CliContext } from '../terminal.js';
import { writeReport } from './report.js';

export interface ViewOptions {
  readonly store: string;
  readonly port: number;
  /** Open the desktop's browser at the viewer (--no-open: only print the address). */
  readonly open: boolean;
  /** --read-only: write no notes, even to a store that could take them. */
  readonly readOnly?: boolean;
  /** Write a static bundle into this folder instead of serving. */
  readonly bundle?: string;
  /** With `bundle`: the run (default the latest tournament run). */
  readonly run?: string;
  /** With `bundle`: write into a folder that is not empty. */
  readonly force?: boolean;
}

/**
 * The notes writer: a second connection, opened for writing, that only the notes API uses (the pages
 * read through the read-only one). A store that cannot be written (its file or folder) leaves notes
 * read-only, with the reason the page shows.
 */
function notesWriter(options: ViewOptions, now: () => Date): { writer?: Store; writing: NotesWriting } {
  if (options.readOnly) return { writing: { why: 'pmiyc view was started with --read-only' } };
  try {
    const writer = openStore(options.store, { access: 'write', now });
    return { writer, writing: { token: newLinkToken(), book: writer.notes } };
  } catch (error) {
    // A read-only file is a StoreError; a read-only folder may surface as SQLite's own error when the journal cannot be made.
    const sqliteCode = (error as { code?: unknown } | null)?.code;
    if (!(error instanceof StoreError) && !(typeof sqliteCode === 'string' && sqliteCode.startsWith('SQLITE_'))) throw error;
    const cause = error instanceof StoreError ? (error.sqliteCode ?? error.problem) : String(sqliteCode);
    return {
      writing: { why: `${options.store} cannot be written (${cause}): make the file and its folder writable, or view a copy in a folder you can write` },
    };
  }
}

/**
 * `pmiyc view`: the store's runs, conversations and comparisons in a browser, served on 127.0.0.1
 * until Ctrl-C. The pages read the store through a read-only connection, so a run can write to it at
 * the same time (its pages refresh while it is live); research notes are written through their own
 * connection, with the token printed in the address (its fragment, which no server or log sees). With
 * `--bundle DIR`, it writes one run's pages as static files instead (`bundleCommand`).
 */
export async function viewCommand(options: ViewOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  if (options.bundle !== undefined) return bundleCommand({ ...options, bundle: options.bundle }, context);
  if (options.run !== undefined || options.force) throw new InputError('--run and --force go with --bundle DIR: pmiyc view --bundle DIR --run NAME');
  const store = openStore(options.store, { access: 'read' });
  const now = () => context.now();
  const { writer, writing } = notesWriter(options, now);
  let launch: LaunchPage | undefined;
  try {
    const world = () => ({ ...thisProcess(), nowMs: context.now().getTime() });
    const acrossProtocols = acrossProtocolsReader(store, { protocolOutputsOf, packageVersion: context.packageVersion, now });
    const server = await ViewServer.start({
      source: store,
      port: options.port,
      world,
      notes: writing,
      now,
      protocolOutputs: protocolOutputsOf,
      acrossProtocols,
    });
    const address = 'token' in writing ? `${server.url}#token=${writing.token}` : server.url;
    const notes = 'token' in writing ? 'notes can be written from this address' : `read-only: ${writing.why}`;
    context.stdout.write(`Viewing ${store.path} at ${address} (${notes}). Press Ctrl-C to stop.\n`);
    if (options.open) {
      // With a token, the browser is sent a page on disk that redirects to the address: the opener's arguments are public.
      launch = 'token' in writing ? writeLaunchPage(address) : undefined;
      if (!(await openInBrowser(launch?.url ?? address))) context.stdout.write(`No browser could be opened here: open ${address} on this machine.\n`);
    }
    await untilStopped(stop);
    await server.close();
    return 0;
  } finally {
    launch?.remove();
    // The reader first: the writer, closing last, leaves the store in rollback-journal mode for readers in read-only folders.
    store.close();
    writer?.close();
  }
}

/** What a folder holds: nothing (or no folder), an earlier bundle, or other files. */
async function folderState(folder: string): Promise<'empty' | 'bundle' | 'other'> {
  let entries: string[];
  try {
    if (!(await stat(folder)).isDirectory()) throw new InputError(`--bundle ${folder} is a file: name a folder (new or empty)`);
    entries = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'empty';
    throw error;
  }
  if (entries.length === 0) return 'empty';
  const bundled = await stat(join(folder, 'data', 'bundle.js')).then(
    () => true,
    () => false,
  );
  return bundled ? 'bundle' : 'other';
}

/** The entries a bundle makes in its folder. */
const BUNDLE_ENTRIES = ['index.html', 'view-app.js', 'view.css', 'data', 'report'];

/**
 * `pmiyc view --bundle DIR [--run NAME] [--force]`: the run's viewer pages as a static folder (docs/design/view.md,
 * "A static bundle"), with its report in DIR/report/. A folder that is not empty is refused (exit 2) unless
 * --force: then an earlier bundle's data/ and report/ are removed first, and other files are left alone. A
 * symbolic link where the bundle writes is refused (exit 2), never written through (`io/write-without-links.ts`).
 */
async function bundleCommand(options: ViewOptions & { readonly bundle: string }, context: CliContext): Promise<number> {
  const folder = resolve(options.bundle);
  const state = await folderState(folder);
  if (state !== 'empty' && !options.force) {
    throw new InputError(
      `${options.bundle} is not empty: name a new or empty folder for the bundle, or add --force to write into it${state === 'bundle' ? ' (the bundle there is replaced)' : ' (files of the same names are replaced)'}`,
    );
  }
  // What the bundle writes at the top, looked at before anything is written: a link there is refused, not followed.
  if (state !== 'empty') await refuseLinksIn(folder, BUNDLE_ENTRIES);
  const store = openStore(options.store, { access: 'read' });
  let written: Awaited<ReturnType<typeof writeBundle>>;
  let runName: string;
  let protocolRun: boolean;
  try {
    const run = store.findRun(options.run, 'tournament');
    runName = run.name;
    protocolRun = run.config.kind === 'protocol';
    if (state === 'bundle') for (const part of ['data', 'report']) await rm(join(folder, part), { recursive: true, force: true });
    written = await writeBundle({
      source: store,
      world: () => ({ ...thisProcess(), nowMs: context.now().getTime() }),
      run,
      folder,
      packageVersion: context.packageVersion,
      writtenAt: context.now().toISOString(),
      report: 'report/index.html',
      protocolOutputs: protocolOutputsOf,
    });
  } finally {
    store.close();
  }
  await writeReport({ store: options.store, run: [runName], out: join(folder, 'report'), format: ['html', 'json', 'csv'] }, context);
  const megabytes = (written.bytes / 1e6).toFixed(1);
  const what = `${written.conversations.toLocaleString('en')} ${protocolRun ? 'items' : `conversations, ${written.lists.toLocaleString('en')} lists`}, ${written.files.toLocaleString('en')} files, ${megabytes} MB, and its report in report/`;
  context.stdout.write(
    `Bundled run ${runName}: ${what}.\n` + `Open ${pathToFileURL(join(folder, 'index.html')).href} (no server needed), or put the folder on any static host.\n`,
  );
  return 0;
}

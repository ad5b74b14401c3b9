import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../domain/errors/input-error.js';
import { untilStopped } from '../../io/graceful-stop.js';
import { openInBrowser } from '../../io/open-browser.js';
import { thisProcess } from '../../io/process-world.js';
import { openStore } from '../../store/result-store.js';
import { writeBundle } from '../../web/view-bundle.js';
import { ViewServer } from '../../web/view-server.js';
import type { CliContext } from '../terminal.js';
import { writeReport } from './report.js';

export interface ViewOptions {
  readonly store: string;
  readonly port: number;
  /** Open the desktop's browser at the viewer (--no-open: only print the address). */
  readonly open: boolean;
  /** Write a static bundle into this folder instead of serving. */
  readonly bundle?: string;
  /** With `bundle`: the run (default the latest tournament run). */
  readonly run?: string;
  /** With `bundle`: write into a folder that is not empty. */
  readonly force?: boolean;
}

/**
 * `pmiyc view`: the store's runs, conversations and comparisons in a browser, served on 127.0.0.1
 * until Ctrl-C. The store is opened read-only, so a run can write to it at the same time (its pages
 * refresh while it is live); with nothing to save, a signal ends it at once. With `--bundle DIR`, it
 * writes one run's pages as static files instead (`bundleCommand`).
 */
export async function viewCommand(options: ViewOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  if (options.bundle !== undefined) return bundleCommand({ ...options, bundle: options.bundle }, context);
  if (options.run !== undefined || options.force) throw new InputError('--run and --force go with --bundle DIR: pmiyc view --bundle DIR --run NAME');
  const store = openStore(options.store, { access: 'read' });
  try {
    const server = await ViewServer.start({ source: store, port: options.port, world: () => ({ ...thisProcess(), nowMs: context.now().getTime() }) });
    context.stdout.write(`Viewing ${store.path} at ${server.url} (read-only). Press Ctrl-C to stop.\n`);
    if (options.open && !(await openInBrowser(server.url))) context.stdout.write(`No browser could be opened here: open ${server.url} on this machine.\n`);
    await untilStopped(stop);
    await server.close();
    return 0;
  } finally {
    store.close();
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

/**
 * `pmiyc view --bundle DIR [--run NAME] [--force]`: the run's viewer pages as a static folder (docs/design/view.md,
 * "A static bundle"), with its report in DIR/report/. A folder that is not empty is refused (exit 2) unless
 * --force: then an earlier bundle's data/ and report/ are removed first, and other files are left alone.
 */
async function bundleCommand(options: ViewOptions & { readonly bundle: string }, context: CliContext): Promise<number> {
  const folder = resolve(options.bundle);
  const state = await folderState(folder);
  if (state !== 'empty' && !options.force) {
    throw new InputError(
      `${options.bundle} is not empty: name a new or empty folder for the bundle, or add --force to write into it${state === 'bundle' ? ' (the bundle there is replaced)' : ' (files of the same names are replaced)'}`,
    );
  }
  const store = openStore(options.store, { access: 'read' });
  let written: Awaited<ReturnType<typeof writeBundle>>;
  let runName: string;
  try {
    const run = store.findRun(options.run, 'tournament');
    runName = run.name;
    if (state === 'bundle') for (const part of ['data', 'report']) await rm(join(folder, part), { recursive: true, force: true });
    written = await writeBundle({
      source: store,
      world: () => ({ ...thisProcess(), nowMs: context.now().getTime() }),
      run,
      folder,
      packageVersion: context.packageVersion,
      writtenAt: context.now().toISOString(),
      report: 'report/index.html',
    });
  } finally {
    store.close();
  }
  await writeReport({ store: options.store, run: [runName], out: join(folder, 'report'), format: ['html', 'json', 'csv'] }, context);
  const megabytes = (written.bytes / 1e6).toFixed(1);
  context.stdout.write(
    `Bundled run ${runName}: ${written.conversations.toLocaleString('en')} conversations, ${written.lists.toLocaleString('en')} lists, ${written.files.toLocaleString('en')} files, ${megabytes} MB, and its report in report/.\n` +
      `Open ${pathToFileURL(join(folder, 'index.html')).href} (no server needed), or put the folder on any static host.\n`,
  );
  return 0;
}

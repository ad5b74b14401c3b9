import { randomBytes } from 'node:crypto';
import { StoreError } from '../../domain/errors/store-error.js';
import { untilStopped } from '../../io/graceful-stop.js';
import { openInBrowser } from '../../io/open-browser.js';
import { thisProcess } from '../../io/process-world.js';
import { openStore, type Store } from '../../store/result-store.js';
import type { NotesWriting } from '../../web/notes-api.js';
import { ViewServer } from '../../web/view-server.js';
import type { CliContext } from '../terminal.js';

export interface ViewOptions {
  readonly store: string;
  readonly port: number;
  /** Open the desktop's browser at the viewer (--no-open: only print the address). */
  readonly open: boolean;
  /** --read-only: write no notes, even to a store that could take them. */
  readonly readOnly?: boolean;
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
    return { writer, writing: { token: randomBytes(24).toString('base64url'), book: writer.notes } };
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
 * connection, with the token printed in the address (its fragment, which no server or log sees).
 */
export async function viewCommand(options: ViewOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  const store = openStore(options.store, { access: 'read' });
  const now = () => context.now();
  const { writer, writing } = notesWriter(options, now);
  try {
    const world = () => ({ ...thisProcess(), nowMs: context.now().getTime() });
    const server = await ViewServer.start({ source: store, port: options.port, world, notes: writing, now });
    const address = 'token' in writing ? `${server.url}#token=${writing.token}` : server.url;
    const notes = 'token' in writing ? 'notes can be written from this address' : `read-only: ${writing.why}`;
    context.stdout.write(`Viewing ${store.path} at ${address} (${notes}). Press Ctrl-C to stop.\n`);
    if (options.open && !(await openInBrowser(address))) context.stdout.write(`No browser could be opened here: open ${address} on this machine.\n`);
    await untilStopped(stop);
    await server.close();
    return 0;
  } finally {
    // The reader first: the writer, closing last, leaves the store in rollback-journal mode for readers in read-only folders.
    store.close();
    writer?.close();
  }
}

import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/** How often the search index's progress is printed while it is built. */
const PROGRESS_EVERY_MS = 5000;

/**
 * `pmiyc upgrade`: brings a store written by an older pmiyc to this version's schema. Writing
 * commands do the same on their own; read-only ones (runs, export, report) never change a store,
 * so they ask for this instead. It also indexes the messages of conversations stored before the
 * store had its full-text index (issue 32), which writing commands leave for it: on a large store
 * that takes minutes (each record is read once), so it prints its progress, and an interrupted
 * upgrade goes on where it stopped.
 */
export function upgradeCommand(options: { store: string }, context: CliContext): number {
  const store = ResultStore.openExisting(options.store);
  try {
    const started = performance.now();
    let printed = started;
    const indexed = store.buildSearchIndex((done, total) => {
      const now = performance.now();
      if (now - printed < PROGRESS_EVERY_MS && done < total) return;
      printed = now;
      context.stderr.write(`indexing messages for search: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} conversations\n`);
    });
    if (indexed > 0) {
      const seconds = (performance.now() - started) / 1000;
      context.stdout.write(`Indexed the messages of ${indexed.toLocaleString('en')} conversations for search in ${seconds.toFixed(1)} s.\n`);
    }
  } finally {
    store.close();
  }
  context.stdout.write(`${options.store} is up to date for this pmiyc.\n`);
  return 0;
}

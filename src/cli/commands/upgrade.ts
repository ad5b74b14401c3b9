import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/**
 * `pmiyc upgrade`: brings a store written by an older pmiyc to this version's schema. Writing
 * commands do the same on their own; read-only ones (runs, export, report) never change a store,
 * so they ask for this instead.
 */
export function upgradeCommand(options: { store: string }, context: CliContext): number {
  const store = ResultStore.openExisting(options.store);
  store.close();
  context.stdout.write(`${options.store} is up to date for this pmiyc.\n`);
  return 0;
}

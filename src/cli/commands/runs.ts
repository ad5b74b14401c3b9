import { thisProcess } from '../../io/process/process-world.js';
import { runsTableText } from '../../report/texts/runs-table.js';
import { openStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/**
 * `pmiyc runs`: every run in a store with its status and the whole run's totals (see
 * `runsTableText`). Opens the store read-only.
 */
export function runsCommand(options: { store: string }, context: CliContext): number {
  const store = openStore(options.store, { access: 'read' });
  try {
    const table = runsTableText(store.listRuns(), store.leases(), { ...thisProcess(), nowMs: context.now().getTime() });
    context.stdout.write(table ?? `${options.store} has no runs yet.\n`);
    return 0;
  } finally {
    store.close();
  }
}

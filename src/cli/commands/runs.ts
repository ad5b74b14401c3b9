import { formatTextTable } from '../../report/text-table.js';
import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/** `pmiyc runs`: every run in a store with its status and counts. */
export function runsCommand(options: { store: string }, context: CliContext): number {
  const store = ResultStore.openExisting(options.store);
  try {
    const rows = store.listRuns().map((run) => [
      run.name,
      run.status,
      run.createdAt.replace('T', ' ').slice(0, 19),
      `${run.completed + run.failed}${run.plannedConversations === undefined ? '' : `/${run.plannedConversations}`}`,
      String(run.failed),
      String(run.callsMade),
      `$${run.costUsd.toFixed(4)}`,
    ]);
    if (rows.length === 0) {
      context.stdout.write(`${options.store} has no runs yet.\n`);
      return 0;
    }
    context.stdout.write(`${formatTextTable(['run', 'status', 'started (UTC)', 'conversations', 'failed', 'calls made', 'cost'], rows)}\n`);
    return 0;
  } finally {
    store.close();
  }
}

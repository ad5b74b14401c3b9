import { formatTextTable } from '../../report/text-table.js';
import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/** `pmiyc runs`: every run in a store (tournaments and studies) with its status and counts. */
export function runsCommand(options: { store: string }, context: CliContext): number {
  const store = ResultStore.openExisting(options.store);
  try {
    const rows = store.listRuns().map((run) => {
      const tournament = run.kind === 'tournament';
      return [
        run.name,
        run.kind,
        run.status,
        run.createdAt.replace('T', ' ').slice(0, 19),
        tournament ? `${run.completed + run.failed}${run.plannedConversations === undefined ? '' : `/${run.plannedConversations}`}` : '-',
        tournament ? String(run.failed) : '-',
        tournament ? '-' : String(run.studyItems),
        String(run.callsMade),
        `$${run.costUsd.toFixed(4)}`,
      ];
    });
    if (rows.length === 0) {
      context.stdout.write(`${options.store} has no runs yet.\n`);
      return 0;
    }
    context.stdout.write(
      `${formatTextTable(['run', 'kind', 'status', 'started (UTC)', 'conversations', 'failed', 'samples/trials', 'calls made', 'cost'], rows)}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}

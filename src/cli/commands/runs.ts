import { thisProcess } from '../../io/process-world.js';
import { formatTextTable } from '../../report/text-table.js';
import { runState } from '../../runner/run-lease.js';
import { openStore, type RunSummary } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/** "88 (run-1: 80, run-2: 8)" */
function replayedText(run: RunSummary): string {
  const total = run.replayed.reduce((sum, source) => sum + source.calls, 0);
  if (total === 0) return '0';
  return `${total} (${run.replayed.map((source) => `${source.run}: ${source.calls}`).join(', ')})`;
}

/**
 * `pmiyc runs`: every run in a store (tournaments and studies) with its honest status (a run whose
 * process died is interrupted, not running), its counts, the calls it made and those it replayed
 * from earlier runs. Opens the store read-only.
 */
export function runsCommand(options: { store: string }, context: CliContext): number {
  const store = openStore(options.store, { access: 'read' });
  try {
    const leases = store.leases();
    const world = { ...thisProcess(), nowMs: context.now().getTime() };
    const rows = store.listRuns().map((run) => {
      const tournament = run.kind === 'tournament';
      const state = runState(run.status, run.stopReason, leases.get(run.id), world);
      return [
        run.name,
        run.kind,
        state.why ? `${state.status} (${state.why})` : state.status,
        run.createdAt.replace('T', ' ').slice(0, 19),
        tournament ? `${run.completed + run.failed}${run.plannedConversations === undefined ? '' : `/${run.plannedConversations}`}` : '-',
        tournament ? String(run.failed) : '-',
        tournament ? '-' : String(run.studyItems),
        String(run.callsMade),
        replayedText(run),
        `$${run.costUsd.toFixed(4)}`,
      ];
    });
    if (rows.length === 0) {
      context.stdout.write(`${options.store} has no runs yet.\n`);
      return 0;
    }
    context.stdout.write(
      `${formatTextTable(['run', 'kind', 'status', 'started (UTC)', 'conversations', 'failed', 'samples/trials', 'calls made', 'replayed from', 'cost'], rows)}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}

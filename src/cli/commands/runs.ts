import { formatCount as count } from '../../domain/text-labels.js';
import { thisProcess } from '../../io/process-world.js';
import { CALLS_MADE_MEANS } from '../../report/run-totals-text.js';
import { formatTextTable } from '../../report/text-table.js';
import { describeRunState, runState } from '../../runner/run-lease.js';
import { failedItemsOf } from '../../runner/run-records.js';
import { openStore, type RunSummary } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

/** "1,088 (run-1: 1,080, run-2: 8)" */
function replayedText(run: RunSummary): string {
  const total = run.replayed.reduce((sum, source) => sum + source.calls, 0);
  if (total === 0) return '0';
  return `${count(total)} (${run.replayed.map((source) => `${source.run}: ${count(source.calls)}`).join(', ')})`;
}

/** "1,170" or, when the run says how many it plans, "170/180". */
const ofPlanned = (stored: number, planned: number | undefined) => `${count(stored)}${planned === undefined ? '' : `/${count(planned)}`}`;

/**
 * `pmiyc runs`: every run in a store (tournaments and studies) with its honest status (a run whose
 * process died is interrupted, not running; a run that went through its plan is completed, with
 * its failed count), and the whole run's totals in the words of a session's closing lines:
 * conversations finished, calls made, replayed, cost. Opens the store read-only.
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
        describeRunState(state, failedItemsOf(run)),
        run.createdAt.replace('T', ' ').slice(0, 19),
        tournament ? ofPlanned(run.completed + run.failed, run.plannedConversations) : '-',
        tournament ? count(run.failed) : '-',
        tournament ? '-' : ofPlanned(run.studyItems, run.plannedConversations),
        count(run.callsMade),
        replayedText(run),
        `$${run.costUsd.toFixed(4)}`,
      ];
    });
    if (rows.length === 0) {
      context.stdout.write(`${options.store} has no runs yet.\n`);
      return 0;
    }
    const header = ['run', 'kind', 'status', 'started (UTC)', 'conversations finished', 'failed', 'samples/trials', 'calls made', 'replayed', 'cost'];
    context.stdout.write(
      `${formatTextTable(header, rows)}\n` +
        `Whole runs, all sessions: conversations finished are stored, completed or failed (of those planned); calls made are ${CALLS_MADE_MEANS}; ` +
        'replayed are answers taken from earlier runs, free; cost is of the calls made.\n',
    );
    return 0;
  } finally {
    store.close();
  }
}

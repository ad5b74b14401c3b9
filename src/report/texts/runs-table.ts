import { formatCount as count } from '../../domain/text-labels.js';
import { describeRunState, type LeaseHolder, type LeaseWorld, runState } from '../../runner/run-lease.js';
import { failedItemsOf, holdsConversations, type RunSummary } from '../../runner/run-records.js';
import type { StudyRunSummary } from '../../studies/run-config.js';
import { CALLS_MADE_MEANS } from './run-totals-text.js';
import { formatTextTable } from './text-table.js';

/** "1,088 (run-1: 1,080, run-2: 8)" */
function replayedText(run: RunSummary): string {
  const total = run.replayed.reduce((sum, source) => sum + source.calls, 0);
  if (total === 0) return '0';
  return `${count(total)} (${run.replayed.map((source) => `${source.run}: ${count(source.calls)}`).join(', ')})`;
}

/** "1,234,567" or, when a prompt cache served some of them, "1,234,567 (812,000 cached)". */
const inputText = (run: RunSummary) =>
  run.cachedInputTokens > 0 ? `${count(run.inputTokens)} (${count(run.cachedInputTokens)} cached)` : count(run.inputTokens);

/** "1,170" or, when the run says how many it plans, "170/180". */
const ofPlanned = (stored: number, planned: number | undefined) => `${count(stored)}${planned === undefined ? '' : `/${count(planned)}`}`;

/** The kind column: a protocol's run says which protocol ("protocol ape"), every other run its kind. */
const kindText = (run: StudyRunSummary) => (run.config.kind === 'protocol' ? `protocol ${run.config.protocol}` : run.kind);

/**
 * The conversations column, the failed column and the samples/trials column: a tournament's conversations
 * stored (completed or failed), a protocol's finished items, which are conversations too (one it could not
 * finish is not stored but asked again on resume, so failed counts those a completed run went without), or a
 * study's samples and trials.
 */
function countCells(run: StudyRunSummary): [string, string, string] {
  if (holdsConversations(run.kind)) return [ofPlanned(run.completed + run.failed, run.plannedConversations), count(run.failed), '-'];
  if (run.config.kind === 'protocol') return [ofPlanned(run.studyItems, run.plannedConversations), count(failedItemsOf(run)), '-'];
  return ['-', '-', ofPlanned(run.studyItems, run.plannedConversations)];
}

/**
 * `pmiyc runs`: every run of a store (tournaments and studies) with its honest status (a run whose
 * process died is interrupted, not running, by its lease in `leases`; a run that went through its
 * plan is completed, with its failed count), and the whole run's totals in the words of a session's
 * closing lines, then what they count. Undefined when there is no run.
 */
export function runsTableText(runs: readonly StudyRunSummary[], leases: ReadonlyMap<number, LeaseHolder>, world: LeaseWorld): string | undefined {
  if (runs.length === 0) return undefined;
  const rows = runs.map((run) => {
    const state = runState(run.status, run.stopReason, leases.get(run.id), world);
    return [
      run.name,
      kindText(run),
      describeRunState(state, failedItemsOf(run)),
      run.createdAt.replace('T', ' ').slice(0, 19),
      ...countCells(run),
      count(run.callsMade),
      inputText(run),
      replayedText(run),
      `$${run.costUsd.toFixed(4)}`,
    ];
  });
  const header = [
    'run',
    'kind',
    'status',
    'started (UTC)',
    'conversations finished',
    'failed',
    'samples/trials',
    'calls made',
    'input tokens',
    'replayed',
    'cost',
  ];
  return (
    `${formatTextTable(header, rows)}\n` +
    `Whole runs, all sessions: conversations finished are stored, completed or failed (of those planned); calls made are ${CALLS_MADE_MEANS}; ` +
    "input tokens are the calls made's, with those a provider's prompt cache served (priced at cachedInputUsdPerMillion); " +
    'replayed are answers taken from earlier runs, free; cost is of the calls made.\n'
  );
}

import { type LeaseHolder, leaseLiveness } from '../../runner/run-lease.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import type { SessionWorld } from '../../runner/run-session.js';
import { EXIT_FAILED, type SessionEnding } from '../../runner/session-ending.js';

/**
 * The holder of the tournament run's lease when another process is writing it now: its stored status
 * is running and its lease alive (as `pmiyc view --bundle` tells a live run). Its conversations so
 * far are all a study can read.
 */
export function liveWriterOf(
  store: Pick<RunRecords, 'findRun' | 'leases'>,
  tournamentRun: RunInfo,
  world: Pick<SessionWorld, 'owner' | 'now'>,
): LeaseHolder | undefined {
  const run = store.findRun(tournamentRun.name);
  if (run.status !== 'running') return undefined;
  const holder = store.leases().get(run.id);
  if (holder === undefined) return undefined;
  return leaseLiveness(holder, { ...world.owner, nowMs: world.now().getTime() }).alive ? holder : undefined;
}

/**
 * How a session of a study ends, made honest: a plan run to its end with not one usable label is
 * `failed` (`no-usable-label`: the report has nothing from it); one over a tournament run that another
 * process was still writing is `interrupted` (`source-running`: a resume once that run has ended
 * labels the rest). Both exit 1. A stop (a signal, the budget) ends as it did.
 */
export function analysisEnding(
  ending: SessionEnding,
  study: { readonly plannedLabels: number; readonly usableLabels: number; readonly sourceWriter?: LeaseHolder },
): SessionEnding {
  if (ending.status !== 'completed') return ending;
  if (study.plannedLabels > 0 && study.usableLabels === 0) return { status: 'failed', stopReason: 'no-usable-label', exitCode: EXIT_FAILED };
  if (study.sourceWriter) return { status: 'interrupted', stopReason: 'source-running', exitCode: EXIT_FAILED };
  return ending;
}

/** The line said at the start of a study over a run another process is writing. */
export function describeSourceWriter(runName: string, holder: LeaseHolder, conversations: number): string {
  return (
    `run ${runName} is still being written by another process (\`${holder.command}\`, pid ${holder.pid} on ${holder.host}): ` +
    `this study labels the ${conversations} completed conversations stored so far and ends interrupted; once that run has ended, --resume labels the rest`
  );
}

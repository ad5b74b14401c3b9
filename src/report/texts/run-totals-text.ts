import { formatCount as count } from '../../domain/text-labels.js';
import type { CallTotal, RunCallTotals } from '../../runner/run-records.js';
import type { SessionFacts } from '../../runner/run-session.js';
import { formatTextTable } from './text-table.js';

/**
 * The words every total is said in, in a session's closing lines and in `pmiyc runs` alike: each
 * figure is of "this session" or of the "whole run" (all its sessions), and counts either
 * conversations finished (stored, completed or failed) or calls made (asked of a model, paid for
 * and stored, whether or not their conversation finished; answers replayed from earlier runs are free and not counted).
 */
export const CALLS_MADE_MEANS = 'asked of a model, paid for and stored, whether or not their conversation finished';

const dollars = (usd: number) => `$${usd.toFixed(4)}`;

function tokens(total: CallTotal, amount: number): string {
  if (total.callsWithoutUsage === total.calls) return 'not reported';
  return total.callsWithoutUsage > 0 ? `${count(amount)} (${count(total.callsWithoutUsage)} calls unreported)` : count(amount);
}

function cost(total: CallTotal): string {
  if (total.calls > 0 && total.callsWithoutCost === total.calls) return 'no price set';
  return total.callsWithoutCost > 0 ? `${dollars(total.costUsd)} + ${count(total.callsWithoutCost)} calls unpriced` : dollars(total.costUsd);
}

/** Input tokens, with the part a provider's prompt cache served (and wrote) when it said so. */
function inputTokens(total: CallTotal): string {
  const parts = [
    ...(total.cachedInputTokens > 0 ? [`${count(total.cachedInputTokens)} cached`] : []),
    ...(total.cacheWriteTokens > 0 ? [`${count(total.cacheWriteTokens)} written to cache`] : []),
  ];
  const text = tokens(total, total.inputTokens);
  return parts.length === 0 ? text : `${text}; ${parts.join(', ')}`;
}

const usageRow = (label: string, total: CallTotal, costText = cost(total)) => [
  label,
  count(total.calls),
  inputTokens(total),
  tokens(total, total.outputTokens),
  costText,
];

/** A simulated agent's identity (`sim/<profile>`): its calls cost nothing, priced or not. */
const isSimulated = (identity: string) => identity.startsWith('sim/');

/**
 * The calls the whole run made, per model and in total: the table's total is the "calls made" and
 * "cost" of the whole run below it and in `pmiyc runs`. `labelOf` names a model identity (its aliases).
 */
export function formatCallsMadeText(calls: RunCallTotals, labelOf: (identity: string) => string): string {
  const title = `Calls made in the whole run, per model (${CALLS_MADE_MEANS}):`;
  if (calls.inAll.calls === 0) return `${title} none.`;
  const rows = calls.byModel
    .map((model) => usageRow(labelOf(model.identity), model.inAll, isSimulated(model.identity) && model.inAll.costUsd === 0 ? 'none (simulated)' : undefined))
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
  const simulatedCalls = calls.byModel.filter((model) => isSimulated(model.identity)).reduce((sum, model) => sum + model.inAll.callsWithoutCost, 0);
  const total = { ...calls.inAll, callsWithoutCost: calls.inAll.callsWithoutCost - simulatedCalls };
  return `${title}\n${formatTextTable(['model', 'calls', 'input tokens', 'output tokens', 'cost'], [...rows, usageRow('total', total)])}`;
}

/** A session's closing text: lines for standard output, and one message for standard error (without `pmiyc: `), if any. */
export interface ClosingText {
  readonly lines: readonly string[];
  readonly warning?: string;
}

/** What a session's closing lines total, this session's and the whole run's. */
export interface RunTotalsView {
  /** Conversations finished (stored) this session and in the whole run, with the failed among them. */
  readonly finished: { readonly thisSession: number; readonly thisSessionFailed: number; readonly wholeRun: number; readonly wholeRunFailed: number };
  /** Conversations the run plans, when known. */
  readonly planned?: number;
  readonly calls: RunCallTotals;
  /** Calls replayed from earlier runs this session (by run) and in the whole run (as `pmiyc runs` lists them). */
  readonly replayedThisSession: ReadonlyMap<string, number>;
  readonly replayedWholeRun: ReadonlyArray<{ readonly run: string; readonly calls: number }>;
  /** Answers this session took from the run's own calls (an opening or first argument shared, a resumed conversation's calls). */
  readonly reusedThisSession: number;
  readonly failedCallsThisSession: number;
  readonly modelsWithoutPrice: readonly string[];
}

/** Dollars are shown to 4 decimals: amounts in ten-thousandths, so that the shown figures add up. */
const TEN_THOUSANDTHS = 1e4;
// Rounded as `toFixed` rounds what it shows (0.63935 shows $0.6393, where Math.round(6393.5) would say 6394).
const shown = (usd: number) => Math.round(Number(usd.toFixed(4)) * TEN_THOUSANDTHS);

/**
 * This session's cost as shown: the whole run's shown cost less what the earlier sessions' shown
 * cost was, so that the shown figures of a run's sessions add up to its shown whole (each rounded
 * on its own, $0.0669 and $0.5725 would make $0.6394 of a $0.6393 whole). Off by under $0.0001.
 */
function sessionCostShown(calls: RunCallTotals): string {
  const whole = shown(calls.inAll.costUsd);
  return dollars((whole - shown(calls.inAll.costUsd - calls.thisSession.costUsd)) / TEN_THOUSANDTHS);
}

const sumOf = (counts: Iterable<number>) => [...counts].reduce((sum, amount) => sum + amount, 0);

type Sources = ReadonlyArray<readonly [string, number]>;

/** "run-1: 80, run-2: 8", most first. */
const sourcesText = (sources: Sources) =>
  [...sources]
    .sort((a, b) => b[1] - a[1])
    .map(([run, calls]) => `${run}: ${count(calls)}`)
    .join(', ');

/** "88 (run-1: 80, run-2: 8)", or "0". */
function replayedText(sources: Sources): string {
  const total = sumOf(sources.map(([, calls]) => calls));
  return total === 0 ? '0' : `${count(total)} (${sourcesText(sources)})`;
}

/**
 * This session's and the whole run's totals, side by side: the whole run's column is what
 * `pmiyc runs` lists for the run, and this session's figures of all sessions add up to it.
 */
export function formatRunTotals(view: RunTotalsView): string {
  const { finished, calls } = view;
  const planned = view.planned === undefined ? '' : ` of ${count(view.planned)}`;
  const rows = [
    ['conversations finished', count(finished.thisSession), `${count(finished.wholeRun)}${planned}`],
    ['  of them failed', count(finished.thisSessionFailed), count(finished.wholeRunFailed)],
    ['calls made', count(calls.thisSession.calls), count(calls.inAll.calls)],
    ['cost of the calls made', sessionCostShown(calls), dollars(calls.inAll.costUsd)],
    [
      'replayed from earlier runs',
      replayedText([...view.replayedThisSession]),
      replayedText(view.replayedWholeRun.map((source) => [source.run, source.calls] as const)),
    ],
  ];
  const unpriced = view.modelsWithoutPrice.length > 0 ? [`The cost leaves out ${view.modelsWithoutPrice.join(', ')}: no price set.`] : [];
  return [
    formatTextTable(['', 'this session', 'whole run'], rows),
    `This session also answered ${count(view.reusedThisSession)} requests from the run's own calls (shared or resumed); ${count(view.failedCallsThisSession)} calls failed.`,
    ...unpriced,
  ].join('\n');
}

/** What a study's one closing line totals (see `RunTotalsView`). */
export type CallsView = Pick<RunTotalsView, 'calls' | 'modelsWithoutPrice'> &
  Partial<Pick<RunTotalsView, 'replayedThisSession' | 'reusedThisSession' | 'failedCallsThisSession'>>;

/**
 * The calls of a session and of the whole run in one sentence, for the studies' closing lines:
 * "calls made: 180 this session, 360 in the whole run, costing $0.0100 and $0.0200; this session
 * also reused 20 answers within the run (shared or resumed), replayed 0 from earlier runs, 0 calls failed".
 */
export function describeCallsMade(view: CallsView): string {
  const { calls } = view;
  const unpriced = view.modelsWithoutPrice.length > 0 ? ` (no price for ${view.modelsWithoutPrice.join(', ')})` : '';
  const made =
    `calls made: ${count(calls.thisSession.calls)} this session, ${count(calls.inAll.calls)} in the whole run, ` +
    `costing ${sessionCostShown(calls)} and ${dollars(calls.inAll.costUsd)}${unpriced}`;
  if (view.replayedThisSession === undefined) return made;
  return (
    `${made}; this session also reused ${count(view.reusedThisSession ?? 0)} answers within the run (shared or resumed), ` +
    `replayed ${replayedText([...view.replayedThisSession])} from earlier runs, ${count(view.failedCallsThisSession ?? 0)} calls failed`
  );
}

/** A study session's calls for `describeCallsMade`: the store's totals since the session's mark, with what its meter counted. */
export function sessionCallsView(facts: SessionFacts, calls: RunCallTotals): CallsView {
  return {
    calls,
    modelsWithoutPrice: facts.modelsWithoutPrice,
    replayedThisSession: facts.meter.replayedFrom,
    reusedThisSession: facts.meter.callsShared,
    failedCallsThisSession: facts.meter.callsFailed,
  };
}

/** The ways `pmiyc run` asks other requests of the same models; a command offers those it has. */
const ASK_AFRESH = ['--repeat N (more repetitions)', '--seed N (other samples)', '--no-cache (reuse nothing from earlier runs)'];

/**
 * When a session asked nothing of any model, says so and where its answers came from; with
 * answers replayed from earlier runs, how to ask afresh (`ways`: the command's flags for it, said
 * as `ASK_AFRESH` says them). Undefined when it made a call.
 */
export function describeNothingAsked(view: RunTotalsView, ways: readonly string[] = ASK_AFRESH): string | undefined {
  if (view.calls.thisSession.calls > 0 || view.failedCallsThisSession > 0) return undefined;
  const replayed = sumOf(view.replayedThisSession.values());
  if (replayed > 0) {
    return (
      `Nothing was asked of any model this session: all ${count(replayed + view.reusedThisSession)} answers came from the store, ` +
      `${count(replayed)} of them replayed from earlier runs (${sourcesText([...view.replayedThisSession])}). ` +
      `To ask the models afresh, run other requests: ${ways.length > 1 ? `${ways.slice(0, -1).join(', ')}, or ${ways.at(-1)}` : ways[0]}.`
    );
  }
  if (view.reusedThisSession > 0) return `Nothing was asked of any model this session: every answer came from the run's own stored calls.`;
  return 'Nothing was asked of any model this session.';
}

import { formatCount as count, formatCounted, labelModel } from '../../domain/text-labels.js';
import { describeReplicaUse } from '../../runner/progress/replica-lines.js';
import type { RunCallTotals } from '../../runner/run-records.js';
import { describeFailures, describeStop } from '../../runner/session-ending.js';
import type { AnalysisDesign } from '../../studies/analysis/analysis-design.js';
import type { AnalysisEstimate } from '../../studies/analysis/analysis-estimate.js';
import { analysisGrainOf } from '../../studies/analysis/analysis-grain.js';
import type { StoredTurnLabels } from '../../studies/analysis/analysis-results.js';
import type { AnalysisOutcome } from '../../studies/analysis/analysis-study.js';
import { type ClosingText, describeCallsMade, sessionCallsView } from '../texts/run-totals-text.js';
import { formatTextTable } from '../texts/text-table.js';

/** How a study asks its judges, in words (`--grain`). */
function describeGrain(design: Pick<AnalysisDesign, 'grain'>): string {
  return analysisGrainOf(design) === 'conversation'
    ? 'one call per conversation and judge, labelling every turn (--grain conversation)'
    : 'one call per turn and judge (--grain turn)';
}

/** Techniques listed per persuader in the summary. */
const TOP_TECHNIQUES = 3;

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(0)}%`);

/**
 * What a study's judges said, briefly: per judge, the turns labelled and those whose analysis failed
 * (no usable answer, with the commonest reason); per persuader, its top techniques by share of its
 * labelled turns, from the first judge's labels. Simulated agents are labelled.
 */
export function analysisSummaryText(
  design: Pick<AnalysisDesign, 'judges'>,
  labels: Iterable<StoredTurnLabels>,
  persuaders: ReadonlyMap<string, string>,
): string[] {
  const perJudge = new Map(design.judges.map((judge) => [judge, { labelled: 0, failed: 0, problems: new Map<string, number>() }]));
  const first = design.judges[0];
  const profiles = new Map<string, { turns: number; uses: Map<string, number>; unethical: number; refused: number; leftRole: number }>();
  for (const stored of labels) {
    const tally = perJudge.get(stored.judge);
    if (tally === undefined) continue;
    if (stored.labels === null) {
      tally.failed += 1;
      const problem = stored.problem ?? 'no usable answer';
      tally.problems.set(problem, (tally.problems.get(problem) ?? 0) + 1);
      continue;
    }
    tally.labelled += 1;
    if (stored.judge !== first || stored.labels.role !== 'persuader') continue;
    const persuader = persuaders.get(stored.conversationId);
    if (persuader === undefined) continue;
    const profile = profiles.get(persuader) ?? { turns: 0, uses: new Map(), unethical: 0, refused: 0, leftRole: 0 };
    profile.turns += 1;
    for (const id of stored.labels.techniques) profile.uses.set(id, (profile.uses.get(id) ?? 0) + 1);
    if (stored.labels.unethical.length > 0) profile.unethical += 1;
    if (stored.labels.refused) profile.refused += 1;
    if (stored.labels.leftRole) profile.leftRole += 1;
    profiles.set(persuader, profile);
  }
  const judgeRows = [...perJudge].map(([judge, tally]) => {
    const commonest = [...tally.problems].sort((a, b) => b[1] - a[1])[0];
    return [labelModel(judge), count(tally.labelled), count(tally.failed), commonest ? `${commonest[0]} (${count(commonest[1])})` : ''];
  });
  const lines = [formatTextTable(['judge', 'turns labelled', 'turns failed', 'commonest reason a turn failed'], judgeRows)];
  if (profiles.size > 0 && first !== undefined) {
    const rows = [...profiles]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([persuader, profile]) => {
        const top = [...profile.uses]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, TOP_TECHNIQUES)
          .map(([id, uses]) => `${id} ${percent(uses, profile.turns)}`);
        return [
          labelModel(persuader),
          count(profile.turns),
          top.join(', ') || 'none',
          percent(profile.unethical, profile.turns),
          percent(profile.refused, profile.turns),
          percent(profile.leftRole, profile.turns),
        ];
      });
    lines.push(
      '',
      `Persuader turns as ${labelModel(first)} labelled them (share of each persuader's labelled turns):`,
      formatTextTable(['persuader', 'turns', `top techniques`, 'any unethical', 'refused', 'left role'], rows),
    );
  }
  if (design.judges.some((judge) => judge.startsWith('sim/')))
    lines.push('', 'A simulated judge reads the marks simulated agents write; its labels test the pipeline, not any model.');
  return lines;
}

/** What a session of an analysis study is about and did. */
export interface AnalysisSessionView {
  readonly outcome: AnalysisOutcome;
  readonly design: AnalysisDesign;
  readonly tournamentRun: string;
  readonly calls: RunCallTotals;
  /** The store as the command names it (for the commands that resume and report). */
  readonly storePath: string;
  readonly maxCost?: number;
}

/**
 * An analysis session's closing text: what it read, what it did, its calls (replays said), and when it
 * stopped or some calls failed, how to go on.
 */
export function analysisSessionText(view: AnalysisSessionView): ClosingText {
  const { outcome, design } = view;
  const { run, result, ending } = outcome;
  const judges = design.judges.map(labelModel).join(', ');
  const sample = design.sample === undefined ? '' : ` (a seeded sample of ${count(design.sample)})`;
  const drift = design.probeDrift ? '; each persuader asked the drift probe' : '';
  const unusable = [...outcome.unusable.values()].reduce((sum, value) => sum + value, 0);
  const probes = design.probeDrift ? ' and probes' : '';
  const done =
    analysisGrainOf(design) === 'conversation'
      ? `${count(result.done)} conversations x judges${probes} done this session (${count(outcome.labelsStored)} turn label sets stored, ${count(unusable)} of them failed: no usable answer)`
      : `${count(result.done)} ${design.probeDrift ? 'labels and probes' : 'labels'} stored this session (${count(unusable)} of them failed: no usable answer)`;
  const lines = [
    `Analysis ${run.name} of run ${view.tournamentRun}: ${count(outcome.conversations)} completed conversations${sample}, ${count(outcome.turns)} turns, judged by ${judges} with the ${design.taxonomy.name} taxonomy, ${describeGrain(design)}${drift}.`,
    `${done}, ${count(result.skipped)} already stored, ${count(result.failed)} calls failed; ${describeCallsMade(sessionCallsView(outcome, view.calls))}.`,
    ...outcome.replicaUse.map(({ model, replicas }) => `${describeReplicaUse(model, replicas)}.`),
    ...ignoredKeysText(outcome.ignoredKeys),
    ...nothingAskedText(outcome, view.calls),
  ];
  const resume = `pmiyc analyze --store ${view.storePath} --study ${run.name} --resume`;
  const unfinished = unfinishedStudyWarning(view, resume);
  if (unfinished) return { lines, warning: unfinished };
  if (ending.status !== 'completed') {
    const maxCost = view.maxCost === undefined ? {} : { maxCost: view.maxCost };
    return {
      lines,
      warning: describeStop(ending, { resume, items: 'labels', blockedModels: outcome.blockedModels, budgetRefusal: outcome.budgetRefusal, ...maxCost }),
    };
  }
  if (result.failed > 0)
    return {
      lines,
      warning: `${describeFailures(outcome.failures, 'calls')} after their retries and are not stored; fix the cause, then ask them again: ${resume}`,
    };
  return { lines };
}

/** Why a study that ran its plan is not completed (`analysisEnding`), and what to do; undefined for any other ending. */
function unfinishedStudyWarning(view: AnalysisSessionView, resume: string): string | undefined {
  const { outcome, design } = view;
  const { run, ending, result } = outcome;
  if (ending.stopReason === 'no-usable-label') {
    const unusable = [...outcome.unusable.values()].reduce((sum, value) => sum + value, 0);
    const what = [
      ...(unusable > 0 ? [`${count(unusable)} answers could not be read`] : []),
      ...(result.failed > 0 ? [`${count(result.failed)} calls failed`] : []),
    ];
    const next =
      result.failed > 0
        ? `fix the cause of the failed calls, then ask them again: ${resume}`
        : `a resume does not ask stored turns again: see why in the judges' table (the commonest reason a turn failed), then start a new study with another judge, a larger --max-tokens or more --max-attempts`;
    return `study ${run.name} failed: no turn has a usable label from ${design.judges.map(labelModel).join(', ')} (${what.join(', ') || 'nothing was labelled'}), so the report has nothing from it; ${next}`;
  }
  if (ending.stopReason === 'source-running' && outcome.sourceWriter) {
    const holder = outcome.sourceWriter;
    return (
      `run ${view.tournamentRun} was still being written by another process (\`${holder.command}\`, pid ${holder.pid} on ${holder.host}) when study ${run.name} read it: ` +
      `only the ${formatCounted(outcome.conversations, 'conversation')} completed by then ${outcome.conversations === 1 ? 'is' : 'are'} labelled, and the study is interrupted, not completed. Once that run has ended, label the rest: ${resume}`
    );
  }
  return undefined;
}

/** Keys listed by name in the line on answers with keys not asked for; the rest are counted. */
const IGNORED_KEYS_SHOWN = 5;

/** That some answers held keys pmiyc did not ask for, which it read past (said, since a judge that adds them may be answering another question). */
function ignoredKeysText(ignoredKeys: ReadonlyMap<string, number>): string[] {
  if (ignoredKeys.size === 0) return [];
  const keys = [...ignoredKeys].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = keys
    .slice(0, IGNORED_KEYS_SHOWN)
    .map(([key, answers]) => `${JSON.stringify(key)} in ${formatCounted(answers, 'answer')}`)
    .join(', ');
  const more = keys.length > IGNORED_KEYS_SHOWN ? ` and ${formatCounted(keys.length - IGNORED_KEYS_SHOWN, 'more key')}` : '';
  return [`The judges' answers held keys pmiyc did not ask for (${shown}${more}): it read the keys it asked for, ignored these, and did not ask again.`];
}

/** When a session asked no model anything: that the study was complete already, or where its answers came from and how to ask afresh. */
function nothingAskedText(outcome: AnalysisOutcome, calls: RunCallTotals): string[] {
  const { result, meter } = outcome;
  if (calls.thisSession.calls > 0 || meter.callsFailed > 0 || result.failed > 0) return [];
  if (result.done === 0) return result.skipped > 0 ? ['Nothing to do: the study holds every label already.'] : [];
  const replayed = [...meter.replayedFrom.values()].reduce((sum, value) => sum + value, 0);
  if (replayed === 0) return [];
  const sources = [...meter.replayedFrom]
    .sort((a, b) => b[1] - a[1])
    .map(([run, calls]) => `${run}: ${count(calls)}`)
    .join(', ');
  return [
    `Nothing was asked of any model this session: ${count(replayed)} answers were replayed from earlier studies (${sources}). To ask afresh: --seed N (other samples) or --no-cache.`,
  ];
}

const TURN_ASSUMPTIONS =
  "Assumptions: one call per label set or probe, as a judge that answers every key asked for needs (keys it adds are read past, not asked again; only a missing or malformed answer is asked again, up to --max-attempts); input tokens from the requests' own text at about 4 characters a token; answers of about 40 tokens for a persuader turn, 8 for a persuadee turn, half the output limit for a drift probe.";

const CONVERSATION_ASSUMPTIONS =
  "Assumptions: one call per conversation and judge, and per probe, as a judge that answers every turn with every key asked for needs (keys it adds are read past, not asked again; only a conversation with a missing or malformed turn is asked again, whole, up to --max-attempts); input tokens from the requests' own text (the whole conversation shown once) at about 4 characters a token; answers of about 44 tokens per persuader turn and 12 per persuadee turn (each turn's labels and its key), half the output limit for a drift probe.";

/** `pmiyc analyze --dry-run`: the plan, what is stored of it, and the calls, tokens and cost of the rest (the lines to print). */
export function analysisDryRunText(estimate: AnalysisEstimate, design: AnalysisDesign, tournamentRun: string, storePath: string): string[] {
  const judges = design.judges.map(labelModel).join(', ');
  const whole = analysisGrainOf(design) === 'conversation';
  const lines = [
    `Dry run: nothing is called and no study is made. Run ${tournamentRun}: ${count(estimate.conversations)} completed conversations${design.sample === undefined ? '' : ` (a seeded sample of ${count(design.sample)})`}, ${count(estimate.turns)} turns.`,
    `Judges: ${judges}, with the ${design.taxonomy.name} taxonomy (${design.taxonomy.techniques.length} techniques, ${design.taxonomy.unethical.length} unethical strategies): ${count(estimate.labels)} label sets (one per turn and judge)${estimate.probes > 0 ? `, and ${count(estimate.probes)} drift probes` : ''}.`,
    `Asked ${describeGrain(design)}: ${count(estimate.labelTasks)} ${whole ? 'conversation readings' : 'label sets'} to ask${estimate.probes > 0 ? `, and the probes` : ''}.`,
    `In ${storePath} already: ${count(estimate.storedInStudy)} ${whole ? 'conversation readings or probes' : 'label sets or probes'} stored in the study being resumed (skipped), ${count(estimate.replayable)} answered by stored calls (replayed for free); not counted below.`,
    '',
  ];
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    count(model.calls),
    count(model.inputTokens),
    count(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
  ]);
  lines.push(
    rows.length > 0 ? formatTextTable(['model', 'calls', 'input tokens', 'output tokens', 'cost'], rows) : 'Nothing to call: the store holds every answer.',
  );
  lines.push('');
  const cost =
    estimate.unpricedModels.length === 0
      ? `about $${estimate.costUsd.toFixed(2)}`
      : `at least $${estimate.costUsd.toFixed(2)} (no price for ${estimate.unpricedModels.map(labelModel).join(', ')}; set inputUsdPerMillion and outputUsdPerMillion under models: in the config)`;
  lines.push(`Total cost: ${cost}.`);
  lines.push(whole ? CONVERSATION_ASSUMPTIONS : TURN_ASSUMPTIONS);
  return lines;
}

import type { ConversationRecord } from '../../domain/conversation-record.js';
import { hashString } from '../../domain/random.js';
import { type StudyRun, tournamentDesignOf } from '../run-config.js';
import { type AgentRoster, resolveAgents, type VariantBook } from '../tournament/agents.js';
import type { AnalysisDesign } from './analysis-design.js';
import { analysisGrainOf } from './analysis-grain.js';
import { hasRecordedDriftProbe } from './drift-probe.js';
import type { ConversationTask } from './label-conversation.js';
import type { TurnTask } from './label-turn.js';

/**
 * One piece of an analysis study's work: a judge's labels of one turn (the turn grain), a judge's
 * labels of every turn of one conversation (the conversation grain), or a persuader's drift probe.
 */
export type AnalysisTask =
  | ({ readonly kind: 'labels' } & TurnTask)
  | ({ readonly kind: 'conversation-labels' } & ConversationTask)
  | { readonly kind: 'drift'; readonly record: ConversationRecord };

/**
 * The conversations a study reads: the run's completed ones (a failed conversation has no final
 * score, and the report leaves it out everywhere, so its turns are not labelled), all of them, or a
 * seeded sample of `sample`: the conversations whose hash with the study's seed ranks lowest, so
 * that the same seed picks the same ones, and a run grown since picks mostly the same. In the run's order.
 */
export function conversationsToAnalyse(completed: readonly ConversationRecord[], sample: number | undefined, seed: number): ConversationRecord[] {
  if (sample === undefined || sample >= completed.length) return [...completed];
  const rank = (record: ConversationRecord) => hashString(`${seed}\u001f${record.conversationId}`);
  const chosen = new Set(
    [...completed]
      .sort((a, b) => rank(a) - rank(b) || a.conversationId.localeCompare(b.conversationId))
      .slice(0, sample)
      .map((record) => record.conversationId),
  );
  return completed.filter((record) => chosen.has(record.conversationId));
}

/** Whether a conversation's persuader is asked the drift probe by this study. */
function probesDrift(design: Pick<AnalysisDesign, 'probeDrift'>, record: ConversationRecord): boolean {
  return design.probeDrift && !hasRecordedDriftProbe(record);
}

/**
 * Every task of a study, lazily, conversation by conversation: in the conversation grain one per judge;
 * in the turn grain turn by turn, every judge on a turn before the next turn (so that judges progress
 * together); then the conversation's drift probe.
 */
export function* planAnalysisTasks(
  conversations: readonly ConversationRecord[],
  design: Pick<AnalysisDesign, 'judges' | 'probeDrift' | 'grain'>,
): Generator<AnalysisTask> {
  const whole = analysisGrainOf(design) === 'conversation';
  for (const record of conversations) {
    if (whole) for (const judge of design.judges) yield { kind: 'conversation-labels', judge, record };
    else for (const turn of record.turns) for (const judge of design.judges) yield { kind: 'labels', judge, record, turn: turn.index };
    if (probesDrift(design, record)) yield { kind: 'drift', record };
  }
}

/**
 * How many tasks `planAnalysisTasks` yields: `labelTasks` (a conversation and judge each, or a turn and
 * judge each) and drift probes; and the turns and label sets (turns x judges) they store either way.
 */
export function countAnalysisTasks(conversations: readonly ConversationRecord[], design: Pick<AnalysisDesign, 'judges' | 'probeDrift' | 'grain'>) {
  const turns = conversations.reduce((sum, record) => sum + record.turns.length, 0);
  const probes = conversations.filter((record) => probesDrift(design, record)).length;
  const labels = turns * design.judges.length;
  const labelTasks = analysisGrainOf(design) === 'conversation' ? conversations.length * design.judges.length : labels;
  return { turns, labels, labelTasks, probes };
}

/** The unit a study's progress counts in: its tasks, as `countAnalysisTasks` counts them. */
export function analysisProgressUnit(design: Pick<AnalysisDesign, 'probeDrift' | 'grain'>): string {
  const labels = analysisGrainOf(design) === 'conversation' ? 'conversations x judges' : 'labels';
  return design.probeDrift ? `${labels} and probes` : labels;
}

/**
 * The persuaders a study asks the drift probe (with `probeDrift`; none without), each resolved once
 * from its agent name: its model and the prompts it is asked with.
 */
export function probedPersuaders(conversations: readonly ConversationRecord[], design: Pick<AnalysisDesign, 'probeDrift'>, variants: VariantBook): AgentRoster {
  return resolveAgents(design.probeDrift ? conversations.map((record) => record.persuader) : [], variants);
}

/** The prompt variants a tournament run was run with (none for an imported run). */
export function variantsOf(run: StudyRun): VariantBook {
  return tournamentDesignOf(run.config)?.variants ?? {};
}

/**
 * How a persuader is asked the drift probe: as it was sampled in its tournament (its temperature and
 * output limit; the tagged format needs room), else (an imported run) as the judges are.
 */
export function driftSamplingOf(run: StudyRun, design: AnalysisDesign): AnalysisDesign['sampling'] {
  const sampling = tournamentDesignOf(run.config)?.sampling;
  if (sampling === undefined) return design.sampling;
  return { temperature: sampling.temperature, maxOutputTokens: sampling.maxOutputTokens, maxAttempts: design.sampling.maxAttempts };
}

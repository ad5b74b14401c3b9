import type { LabelAgreement } from '../../metrics/agreement/judge-label-agreement.js';
import type { ModelResult } from '../../metrics/group-tally.js';
import type { PersuaderEthics } from '../../metrics/techniques/ethics.js';
import type { TechniqueEffect } from '../../metrics/techniques/technique-effects.js';
import type { TechniqueShare } from '../../metrics/techniques/technique-profiles.js';
import type { FlagRate } from '../../metrics/techniques/turn-flags.js';
import type { AnalysisGrain } from '../../studies/analysis/analysis-grain.js';

/** A judge model of an analysis study, and whether it is a simulated agent. */
export interface StudyJudge {
  readonly model: string;
  readonly simulated: boolean;
}

/** Which analysis study, and which of its judges, a section's numbers come from. */
export interface AnalysisSource {
  /** The analysis study (its run name, `pmiyc analyze`). */
  readonly study: string;
  /** The tournament run whose conversations it labelled. */
  readonly tournamentRun: string;
  /** The judge whose labels the numbers use: the study's first judge. */
  readonly judge: StudyJudge;
}

/** The plain statement every techniques and ethics output carries. */
export const ASSOCIATION_STATEMENT =
  "These are associations, not causes: persuaders choose their techniques (perhaps when a persuadee is already moving, or already lost), nothing here randomises them, and a judge's labels are not ground truth.";

/**
 * What the ethics output carries besides: where the length of a conversation (its exposure) still
 * shapes a number, and why the relation to persuasion is read per turn.
 */
export const ETHICS_STATEMENT = `${ASSOCIATION_STATEMENT} A share of conversations grows with their length: a persuader that persuades sooner has fewer turns in which to use a strategy, so fewer of its conversations hold one at the same rate per turn. The chart therefore shows the share of turns, and the relation to persuasion compares turns, not conversations (conversations that persuade stop early, so comparing conversations would make a strategy that does nothing look harmful).`;

/** report.json `techniques`: each persuader's technique profile and each technique's association with the persuadee's next change. */
export interface TechniquesSection extends AnalysisSource {
  /** Every judge of the study, in the order given (`--judge a,b`); the numbers use the first. */
  readonly judges: StudyJudge[];
  /** The run's analysis studies, oldest first: `pmiyc report --analysis NAME` picks another. */
  readonly studies: string[];
  readonly studyStatus: string;
  /** How the judges were asked (`--grain`): one call per conversation, or one per turn. */
  readonly grain: AnalysisGrain;
  readonly taxonomy: {
    readonly name: string;
    /** A built-in's name or the file's path, as the study recorded it. */
    readonly source: string;
    readonly techniques: ReadonlyArray<{ readonly id: string; readonly name: string }>;
    readonly unethical: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  };
  /** Conversations of the tournament run with at least one turn the judge labelled. */
  readonly conversations: number;
  /** Turns the judge labelled, per role, and those it could not (no usable answer). */
  readonly labelledTurns: { readonly persuader: number; readonly persuadee: number; readonly failed: number };
  readonly statement: string;
  /** What a reader must know: a sample, several judges, several reported runs, a study not finished. */
  readonly notes: string[];
  readonly perModel: TechniqueShare[];
  readonly effects: TechniqueEffect[];
}

/** report.json `ethics`. */
export interface EthicsSection extends AnalysisSource {
  readonly statement: string;
  /** Per persuader and condition; `effectiveness` is the report's own (all completed conversations of the run, `effectiveness`). */
  readonly perModel: ReadonlyArray<
    PersuaderEthics & { readonly effectiveness: Omit<ModelResult, 'domain' | 'setting' | 'model' | 'failed' | 'reason'> | null }
  >;
}

/** report.json `refusals` and `roleBreaks`. */
export interface FlagSection extends AnalysisSource {
  readonly perModel: FlagRate[];
}

/** report.json `judgeAgreement`: present only when the study has two or more judges. */
export interface JudgeAgreementSection {
  readonly study: string;
  readonly judges: StudyJudge[];
  readonly metric: 'nominal';
  /** Turns labelled by two or more judges. */
  readonly turns: number;
  readonly labels: LabelAgreement[];
}

/** The report's analysis fields; all absent when the reported runs have no analysis study. */
export interface AnalysisReport {
  readonly techniques?: TechniquesSection;
  readonly ethics?: EthicsSection;
  readonly refusals?: FlagSection;
  readonly roleBreaks?: FlagSection;
  readonly judgeAgreement?: JudgeAgreementSection;
}

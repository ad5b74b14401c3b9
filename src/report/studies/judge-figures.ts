import type { JudgeAccuracy, JudgedPair } from '../../metrics/agreement/judge-accuracy.js';
import type { BootstrapOptions } from '../../metrics/intervals/claim-cell-table.js';

/** Where a judge run's pairs came from, as its run record says. */
export interface JudgePairSource {
  readonly run: string;
  readonly source: string;
  readonly license: string;
}

/** `report.json` → `studies.judge`: the LLM-as-judge study of the reported runs (paper Sec. 4.1.2). */
export interface JudgeStudySection {
  readonly runs: string[];
  readonly sources: JudgePairSource[];
  /** Distinct pairs judged, those whose difference exceeds the threshold, and their claims. */
  readonly pairs: { readonly total: number; readonly largeDifference: number; readonly claims: number };
  readonly threshold: number;
  /** Accuracy of a judge that guesses. */
  readonly chance: 0.5;
  readonly judges: JudgeAccuracy[];
  readonly bootstrap: BootstrapOptions & { readonly unit: 'claim'; readonly method: 'percentile' };
}

/** What the section needs of a stored trial. */
export interface JudgeSectionTrial extends JudgedPair {
  readonly pairId: string;
}

/**
 * How an analysis study asks its judges (`--grain`, docs/design/techniques.md): `conversation`, one
 * call per conversation and judge that labels every turn, or `turn`, one call per turn and judge with
 * the conversation up to that turn. Its own small file: the command line's option reads it at start-up.
 */
export const ANALYSIS_GRAINS = ['conversation', 'turn'] as const;

export type AnalysisGrain = (typeof ANALYSIS_GRAINS)[number];

/** The grain of a new study when none is given: one call per conversation and judge. */
export const DEFAULT_GRAIN: AnalysisGrain = 'conversation';

/** A study's grain: as stored, or (a study made before the key existed, or a per-turn study, which stores none) per turn. */
export function analysisGrainOf(design: { readonly grain?: AnalysisGrain | undefined }): AnalysisGrain {
  return design.grain ?? 'turn';
}

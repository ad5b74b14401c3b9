/**
 * The LLM Persuasion Benchmark's facts (repository `lechmazur/persuasion`), as its published bundles state them:
 * the layout of a bundle, the per-cell table's columns, the stance scale and the probes. Facts only; pmiyc ships
 * none of the benchmark's files (it has no licence file) and reads the copy a user has (docs/design/
 * llm-persuasion-benchmark.md).
 */

/** The protocol's name, as a stored run's `config.protocol` says it. */
export const LPB_PROTOCOL = 'llm-persuasion-benchmark';

/** Where the benchmark is published, and the snapshot pmiyc's reading of it was checked against. */
export const LPB_SOURCE = {
  repository: 'lechmazur/persuasion',
  snapshot: '2026-03-27',
  commit: '7c935059fed40112dacbf2360cef8959ddb427d6',
} as const;

/** The target's stance scale on a proposition: integers from -3 (against) to 3 (for). */
export const LPB_STANCE_SCALE = { low: -3, high: 3 } as const;

/** Stance probes asked of the target in hidden calls before the conversation, and again after it. */
export const LPB_PROBES_PER_PHASE = 3;

/** The sides a persuader argues: for the proposition, or against it (its signed shift is then sign-flipped). */
export const LPB_SIDES = ['pro', 'con'] as const;
export type LpbSide = (typeof LPB_SIDES)[number];

/** A cell's outcome: a finished conversation, or one the provider's moderation stopped. */
export const LPB_OUTCOMES = ['completed', 'moderated_block'] as const;
export type LpbOutcome = (typeof LPB_OUTCOMES)[number];

/** The target's stance relative to the persuader's side, at the start and at the end. */
export const LPB_ALIGNMENTS = ['aligned', 'neutral', 'opposed'] as const;

/** The bundle's report, and its sections pmiyc reads. */
export const LPB_REPORT_FILE = 'report.md';
export const LPB_SECTIONS = {
  cells: 'Per-Cell Outcomes',
  topics: 'Shift by Topic (Overall)',
  probes: 'Measurement Stability Watchlist',
  diagnostics: 'Conversation Diagnostics Watchlist',
} as const;

/** The per-cell table's columns, in the order the report prints them. */
export const LPB_CELL_COLUMNS = [
  'Cell',
  'Side',
  'Condition',
  'Outcome',
  'Terminal stage',
  'Terminal error',
  'Pre mean',
  'Pre room to move',
  'Conversion vs consolidation',
  'Post mean',
  'Signed shift',
  'Recon clipped',
  'Persuasion clipped',
  'Start alignment',
  'End alignment',
] as const;

/** The columns of the stability watchlist pmiyc reads: the three probes of each phase, comma-separated. */
export const LPB_PROBE_COLUMNS = { cell: 'Cell', pre: 'Pre stances', post: 'Post stances' } as const;

/** The diagnostics watchlist's columns before its counts (each count column is a diagnostic). */
export const LPB_DIAGNOSTICS_LEADING_COLUMNS = ['Cell', 'Side', 'Condition', 'Start alignment'] as const;

/** A transcript's turn says who spoke in these two lines, then its text follows. */
export const LPB_TRANSCRIPT_ROLES = ['persuader', 'target'] as const;
export type LpbSpeakerRole = (typeof LPB_TRANSCRIPT_ROLES)[number];

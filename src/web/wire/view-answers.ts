import type { Domain } from '../../domain/claim.js';
import type { FailureReason, Setting } from '../../domain/conversation.js';
import type { JudgeTags, TagItem, TurnTags } from '../../studies/analysis/turn-tags.js';
import type { ResearchNote, TagCount } from '../../studies/notes/research-notes.js';
import type { CallDetail, ClaimCell, PairCell } from '../../studies/tournament/tournament-browse.js';
import type { RunEstimates } from '../viewer/run-estimates.js';
import type { Arm, ArmsCompared, ModelMeans } from '../viewer/run-overview.js';

/*
 * The bodies of `pmiyc view`'s JSON API (docs/design/view.md), as types only: the server builds
 * them (view-api.ts) and the page reads them (browser/), so a field renamed on one side fails the
 * other's typecheck. The page's program has no Node types, so this file imports only from modules
 * that need none (domain, studies' plain types, run-overview's metrics).
 */

/** One run in `GET /api/runs`: what `pmiyc runs` shows, with the honest status and whether it is live now. */
export interface ViewRun {
  readonly name: string;
  /** RunKind of runner/run-records.ts, spelled out: that module is not one the page's program can read. */
  readonly kind: 'tournament' | 'people serve' | 'consistency' | 'judge' | 'judge-synthesize' | 'analyze' | 'protocol' | 'protocol-analysis';
  /** A protocol run's protocol (`ape`, ...), as `pmiyc runs` names it ("protocol ape"); null for every other run. */
  readonly protocol: string | null;
  readonly status: string;
  /** Why a failed or interrupted run stopped (error, failures; a signal, budget, auth, lease, crash). */
  readonly why: string | null;
  /** The status in the words of `pmiyc runs`: "completed (29 failed)", "interrupted (budget)". */
  readonly statusText: string;
  /** Being written by a live process now: its numbers change. */
  readonly live: boolean;
  readonly createdAt: string;
  readonly plannedConversations: number | null;
  readonly completed: number;
  readonly failed: number;
  readonly studyItems: number;
  readonly callsMade: number;
  readonly costUsd: number;
  /** Earlier runs whose calls this run replayed, with counts. */
  readonly replayed: ReadonlyArray<{ readonly run: string; readonly calls: number }>;
  readonly models: string[];
}

/** `GET /api/runs`. */
export interface RunsAnswer {
  readonly store: string;
  readonly runs: ViewRun[];
}

/** `GET /api/runs/:run`: the run with its provenance, its matrices' cells, model means and claims. */
export interface RunAnswer {
  readonly run: ViewRun & {
    /** Null for an imported run: its files keep no seed. */
    readonly seed: number | null;
    readonly packageVersion: string;
    readonly gitRevision: string | null;
    /** The run's stored config, as recorded (its shape depends on the command that made the run). */
    readonly config: unknown;
  };
  readonly conditions: Array<{ readonly domain: Domain; readonly setting: Setting }>;
  readonly models: string[];
  readonly failureReasons: FailureReason[];
  readonly pairs: PairCell[];
  readonly modelMeans: ModelMeans[];
  readonly claims: ClaimCell[];
  /** The analysis study shown (`?analysis=NAME`, else the run's latest) with its filters and technique profile; null when the run has none. */
  readonly analysis: RunAnalysis | null;
}

/** The analysis study whose judges' labels a page shows (issue 29), and how it was made. */
export interface AnalysisSummary {
  readonly name: string;
  /** Every analysis study of the run, oldest first. */
  readonly studies: readonly string[];
  /** The study's judges in its design's order. */
  readonly judges: readonly string[];
  /** The judge whose labels the filters and the technique profile use: the study's first. */
  readonly judge: string;
  /** Judges that are simulated agents. */
  readonly simulated: readonly string[];
  readonly taxonomy: { readonly name: string; readonly source: string };
}

/** The filters a run's labels allow: the taxonomy's items that the first judge gave some turn, and whether any turn refused or left its role. */
type LabelFilters = Pick<JudgeTags, 'techniques' | 'unethical' | 'refused' | 'leftRole'>;

/**
 * One persuader's technique profile in one condition: of its labelled persuader turns (completed
 * conversations, the first judge's labels), the share that uses each technique. Computed in SQLite
 * (`techniqueCounts`); equals the point estimate of the report's `techniques.perModel`.
 */
export interface TechniqueProfile {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly turns: number;
  /** Every technique any persuader of the run used, in the taxonomy's order. */
  readonly techniques: ReadonlyArray<TagItem & { readonly usedTurns: number; readonly share: number }>;
}

export interface RunAnalysis extends AnalysisSummary {
  readonly filters: LabelFilters;
  readonly techniqueProfile: readonly TechniqueProfile[];
}

/** `GET /api/conversations/:id/labels`: each turn's tags from every judge of the analysis study (none when the run has no study). */
export interface LabelsAnswer {
  readonly run: string;
  readonly analysis: AnalysisSummary | null;
  readonly turns: readonly TurnTags[];
}

/** `GET /api/conversations/:id/calls`: the stored calls behind a conversation's attempts. */
export interface CallsAnswer {
  readonly run: string;
  readonly calls: CallDetail[];
  /** The other runs that hold a conversation with the same id. */
  readonly otherRuns: string[];
}

/** `GET /api/compare`. */
export interface CompareAnswer extends ArmsCompared {
  readonly a: Arm;
  readonly b: Arm;
}

/** `GET /api/runs/:run/estimates`: the report's intervals of the run page's means and its comparisons (Holm-adjusted p). */
export interface EstimatesAnswer extends RunEstimates {
  readonly run: string;
}

/** Every error answer (400, 403, 404, 405, 500). */
export interface ErrorAnswer {
  readonly error: string;
}

/** Whether this viewer may write notes, and if not, why (a read-only store, or `--read-only`). */
export interface NotesWritingState {
  readonly writable: boolean;
  readonly why: string | null;
}

/** `GET /api/runs/:run/notes`: a run's research notes (issue 32), filtered as asked, oldest first, with every tag the run's notes use. */
export interface NotesAnswer {
  readonly run: string;
  readonly writing: NotesWritingState;
  readonly tags: readonly TagCount[];
  readonly notes: readonly ResearchNote[];
}

/** The answer to a note written: `POST /api/runs/:run/notes` (201) and `PUT /api/runs/:run/notes/:id`. */
export interface NoteAnswer {
  readonly note: ResearchNote;
}

/** The answer to `DELETE /api/runs/:run/notes/:id`. */
export interface DeletedNoteAnswer {
  readonly deleted: number;
}

import type { IntervalMethod } from '../metrics/intervals/claim-estimates.js';
import type { Sampling } from './design-parts.js';
import type { StoredProtocolRecord } from './protocol-records.js';
import type { StudyRun } from './run-config.js';

/**
 * What a protocol beside PMIYC's (src/protocols/) gives every reader of its runs: `report`, `export`,
 * `show` and `view`. The readers are shared parts and may not import a protocol, so a protocol hands them
 * its figures, rows and conversations in these shapes, which say nothing of any one protocol; the CLI
 * looks a run's protocol up in the kit's registry (`kit/protocol-registry.ts`) and passes its outputs in
 * (docs/design/protocols.md, "What a protocol gives its readers").
 */

/** A labelled value a reader shows as it is: a fact of a conversation, or of one of its turns. */
export interface ProtocolFact {
  readonly label: string;
  readonly value: string | number | boolean | null;
}

/** One message of a protocol conversation, with what the protocol read of it (its class, a belief, ...). */
export interface ProtocolTurnView {
  /** Its place in the conversation, from 0. */
  readonly index: number;
  /** The speaker's role in the protocol's words (persuader, persuadee, ...). */
  readonly role: string;
  /** The model that wrote it. */
  readonly model: string;
  /** The protocol's turn number it belongs to (APE: 0 for the persuadee's opening, then 1, 2, 3). */
  readonly turn: number;
  readonly text: string;
  /** What was read of this message, in the order shown. */
  readonly marks: readonly ProtocolFact[];
}

/**
 * One finished item of a protocol run as every reader shows it: its key (`pmiyc show`'s id within the
 * run), a title, the facts of its plan, who took part, its messages, and what it came to.
 */
export interface ProtocolConversationView {
  readonly itemKey: string;
  readonly title: string;
  readonly facts: readonly ProtocolFact[];
  readonly participants: ReadonlyArray<{ readonly role: string; readonly model: string }>;
  readonly turns: readonly ProtocolTurnView[];
  readonly outcome: readonly ProtocolFact[];
  /**
   * The labels of the facts that a list of the run's items shows as columns beside each item's key, participants
   * and outcome (the viewer's run page), in order: the few that tell items apart. None when absent.
   */
  readonly listedFacts?: readonly string[];
}

/** An estimate with its interval and n, as the report's tables show it ("0.42 [0.31, 0.55] n = 36"). */
export interface ProtocolEstimateCell {
  readonly estimate: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly n: number;
  /** Too few units (claims, topics, scenes) to trust the interval: shown with a ~ mark. */
  readonly thin?: boolean;
  /** No value, and why ("12 of 12 failed: format"): shown as "no data (12 of 12 failed: format)". */
  readonly reason?: string;
}

/** A table cell: text, a number, an estimate, or a model's name (which the report labels simulated where it is). */
export type ProtocolTableCell = string | number | ProtocolEstimateCell | { readonly model: string };

/** A table of a protocol's report section: a title, what its n counts, its columns and rows. */
export interface ProtocolTable {
  /** Names the table's CSV file within its run's section (`rates-by-turn`: `<run>.rates-by-turn.csv`); lower case, digits and dashes. */
  readonly id: string;
  readonly title: string;
  readonly note?: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly ProtocolTableCell[])[];
}

/**
 * One headline figure of a protocol, per model, for the report's table across protocols (docs/design/protocols.md,
 * "One table across protocols"): each model's cell is the very estimate the section's own tables show.
 */
export interface ProtocolModelColumn {
  /** Names the column in report.json and the CSV file (`ape-attempt-rate`: `apeAttemptRate`); lower case, digits and dashes. */
  readonly id: string;
  /** The column's title, naming the protocol and the figure ("APE attempt rate, turn 1, harmful topics"). */
  readonly title: string;
  /** What the figure is and which way is safer or steadier, a sentence for the table's note. */
  readonly description: string;
  /** What a cell's n counts (topics, scenes, questions). */
  readonly unit: string;
  /** Each model's figure by its name (its alias in the run); a model the run did not measure here is absent. */
  readonly cells: ReadonlyArray<{ readonly model: string; readonly cell: ProtocolEstimateCell }>;
}

/**
 * A chart of a protocol's section, as a description the report draws in its own style (a protocol names no chart
 * library): one point per model or label, an estimate on each axis with its interval bar on both axes (the LLM
 * Persuasion Benchmark's offense against defense). Points without a value on an axis are left out.
 */
export interface ProtocolEstimateScatter {
  readonly kind: 'estimate-scatter';
  /** Names the chart's SVG within its run's section (`offense-defense`: `charts/<section anchor>-offense-defense.svg`); lower case, digits and dashes. */
  readonly id: string;
  readonly title: string;
  readonly subtitle?: string;
  readonly xTitle: string;
  readonly yTitle: string;
  /** The id of the section's table that gives the same figures: the chart is shown just before it (after the paragraphs when absent). */
  readonly beforeTable?: string;
  readonly points: ReadonlyArray<{ readonly label: string | { readonly model: string }; readonly x: ProtocolEstimateCell; readonly y: ProtocolEstimateCell }>;
}

/** A chart of a protocol's section (one kind so far). */
type ProtocolChart = ProtocolEstimateScatter;

/** A protocol run's report section: its figures as text and tables, and as JSON for report.json. */
export interface ProtocolFigures {
  /** The section's anchor (the protocol's name). */
  readonly id: string;
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly tables: readonly ProtocolTable[];
  /** Every number of the section, for report.json (field names are public: docs/design/protocols.md). */
  readonly json: unknown;
  /** The protocol's headline figures per model, taken from the section's own estimates, for the table across protocols. None when absent. */
  readonly modelColumns?: readonly ProtocolModelColumn[];
  /** Charts the report draws in the section (HTML inline, Markdown as `charts/*.svg`). None when absent. */
  readonly charts?: readonly ProtocolChart[];
}

/** A value of an exported CSV cell or JSON field. */
export type ProtocolValue = string | number | boolean | null;

/** A CSV file of a protocol's export: its name, columns and rows (one value per column). */
export interface ProtocolCsv {
  readonly name: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly ProtocolValue[])[];
}

/** How a protocol's figures are made: the interval settings the report was asked for. */
export interface ProtocolFiguresOptions {
  readonly confidence: number;
  readonly method: IntervalMethod;
  readonly replicates: number;
  readonly seed: number;
}

/** A study in which another judge labelled a protocol run's items again (`pmiyc analyze --run RUN --judge MODEL`): its run and its records. */
export interface ProtocolJudgeStudy {
  readonly run: StudyRun;
  readonly records: Iterable<StoredProtocolRecord>;
}

/**
 * A protocol's readers' side. Every function reads a run's stored records (in item-key order) through the
 * protocol's own schema, so a record it cannot read is named by run and item as a `DatasetError`.
 */
export interface ProtocolOutputs {
  /** The protocol's name (`config.protocol`). */
  readonly protocol: string;
  /** Each finished item as a conversation, for `show`, `view` and the report's sample. */
  conversation(run: StudyRun, record: StoredProtocolRecord): ProtocolConversationView;
  /** One JSON object per finished item, for `export --format jsonl`. */
  exportLine(run: StudyRun, record: StoredProtocolRecord): Record<string, unknown>;
  /** The protocol's CSV files of a run, for `export --format csv --out DIR` (their columns: docs/design/protocols.md, "Export"). */
  exportCsv(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolCsv[];
  /** The run's report section, from all its records: its figures as paragraphs, tables and JSON (docs/design/protocols.md, "Report"). */
  figures(run: StudyRun, records: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures;
  /**
   * Tables the viewer shows on a run's page above its items (the LLM Persuasion Benchmark's pairwise matrix), with
   * the viewer's interval settings; absent where the page lists the items alone (docs/design/view.md).
   */
  runPageTables?(run: StudyRun, records: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolTable[];
  /**
   * How the run sampled each of its models, by alias, where its design says so per role (PersuSafety's judge at
   * temperature 0, its agents at 1): "What ran" gives each alias its own, rather than the config's one `sampling`.
   * Absent, or a model not in it: the config's `sampling`.
   */
  modelSampling?(run: StudyRun): Readonly<Record<string, Sampling>>;
  /**
   * The agreement between the run's own judge and another judge's study of the same items, added to the run's
   * section (its paragraphs, tables and, in report.json, `judgeAgreement`); absent for a protocol no study labels
   * again (docs/design/protocols.md, "Another judge of a protocol run").
   */
  judgeAgreement?(run: StudyRun, records: Iterable<StoredProtocolRecord>, study: ProtocolJudgeStudy, options: ProtocolFiguresOptions): ProtocolFigures;
}

/** Finds the outputs of a run's protocol; the kit's registry answers it, and names a protocol it does not know. */
export type ProtocolOutputsLookup = (protocol: string) => ProtocolOutputs;

/** The models a protocol run recorded as simulated agents (`config.simulated`): every reader labels them. */
export const simulatedModelsOf = (run: StudyRun): ReadonlySet<string> => new Set(run.config.kind === 'protocol' ? run.config.simulated : []);

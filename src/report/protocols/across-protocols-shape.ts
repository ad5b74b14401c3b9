import type { ProtocolEstimateCell } from '../../studies/protocol-outputs.js';

/** The shape of the table across protocols, as report.json writes it (docs/design/protocols.md, "One table across protocols"). */

/** A column of the table: where its figures come from and what they are. */
export interface AcrossProtocolsColumn {
  readonly id: string;
  readonly title: string;
  /** `pmiyc` for the tournament's figures, else the protocol's name. */
  readonly protocol: string;
  readonly description: string;
  /** What a cell's n counts. */
  readonly unit: string;
  /** The runs the column's figures were taken from. */
  readonly runs: readonly string[];
}

/** A model's row: a cell per column, null where it took part in no run of that column. */
export interface AcrossProtocolsRow {
  readonly model: string;
  readonly cells: ReadonlyArray<ProtocolEstimateCell | null>;
}

/** Spearman's rho between two columns over the models with a figure in both; rho and interval NaN with too few models. */
export interface AcrossProtocolsCorrelation {
  readonly first: string;
  readonly second: string;
  readonly models: number;
  readonly rho: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

/** report.json's `acrossProtocols` (field names public: docs/design/protocols.md). */
export interface AcrossProtocols {
  readonly columns: readonly AcrossProtocolsColumn[];
  readonly rows: readonly AcrossProtocolsRow[];
  readonly correlations: readonly AcrossProtocolsCorrelation[];
  /** Fewest models with both figures for a correlation. */
  readonly minimumModels: number;
  readonly confidence: number;
  /** A model whose figure was found in two runs of one protocol: the first run listed gave it. */
  readonly alsoIn: ReadonlyArray<{ readonly model: string; readonly column: string; readonly run: string; readonly alsoIn: string }>;
}

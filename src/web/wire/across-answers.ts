/**
 * The viewer's answer of `GET /api/across?runs=a,b,c`: the report's table across protocols of those runs
 * (docs/design/protocols.md, "One table across protocols"), with the report's own words for its notes.
 */

/** An estimate with its interval and n; null numbers where the report has none (NaN in the report). */
export interface AcrossCell {
  readonly estimate: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number;
  readonly thin: boolean;
  /** Why there is no value, where the report says so. */
  readonly reason: string | null;
}

export interface AcrossAnswer {
  readonly runs: readonly string[];
  readonly intro: string;
  readonly columns: ReadonlyArray<{
    readonly id: string;
    readonly title: string;
    readonly protocol: string;
    readonly unit: string;
    readonly runs: readonly string[];
  }>;
  /** A row per model; a null cell where the model took part in no run of that column. */
  readonly rows: ReadonlyArray<{ readonly model: string; readonly simulated: boolean; readonly cells: ReadonlyArray<AcrossCell | null> }>;
  readonly notes: readonly string[];
  readonly correlationsText: string;
  readonly correlations: ReadonlyArray<{
    readonly first: string;
    readonly second: string;
    readonly models: number;
    readonly rho: number | null;
    readonly ciLow: number | null;
    readonly ciHigh: number | null;
  }>;
  readonly minimumModels: number;
}

/**
 * Where a protocol beside PMIYC's (APE, PersuSafety, SYCON-Bench; `src/protocols/`) keeps its outcome records:
 * one record per finished item of a run (a conversation on one topic, say), keyed by the protocol's own item
 * key, held as the protocol's JSON. The store keeps them in one table for every protocol and knows nothing of
 * their shape: each protocol reads its records back through its own schema (docs/design/protocols.md, "Storage").
 */

/** One stored record: the item it is of, and the protocol's JSON of it, parsed but not checked. */
export interface StoredProtocolRecord {
  readonly itemKey: string;
  readonly record: unknown;
}

/** The store's side of a protocol's records (the SQLite store implements it). */
export interface ProtocolRecords {
  /** Stores one item's record in a transaction of its own, committed at once; an item stored again replaces its record. */
  add(runId: number, itemKey: string, record: unknown): void;
  /** Whether the item has a record in the run (a resumed run skips it). */
  has(runId: number, itemKey: string): boolean;
  /** How many records the run holds. */
  count(runId: number): number;
  /** The run's records in item-key order, streamed. */
  list(runId: number): Iterable<StoredProtocolRecord>;
  /** Every protocol run's record of the item, the latest run first (`pmiyc show`'s lookup by key); a study's labels of it are not among them. */
  withKey(itemKey: string): Array<{ readonly run: string; readonly record: StoredProtocolRecord }>;
  /** Names of the runs of one protocol (`config.protocol`), oldest first. */
  runNames(protocol: string): string[];
  /** Names of the studies in which another judge labels a protocol run again (`pmiyc analyze --run RUN`), oldest first. */
  analysisNames(studiedRun: string): string[];
}

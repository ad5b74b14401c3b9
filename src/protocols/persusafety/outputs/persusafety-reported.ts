import type { PersusafetyRecord } from '../persusafety-record.js';
import type { PersusafetyScoredConversation } from '../persusafety-strategy-shares.js';

/**
 * Which of a run's conversations each figure of PersuSafety's report reads (docs/design/protocols.md, "PersuSafety:
 * report, export, show and view"): the task refusals read every conversation with a probe; the strategy shares,
 * decisions and the profile shown against hidden read the conversations played, a conversation pmiyc ended at a
 * declined task probe being in none of them. A run's neutral scene played under a benefit or pressure counts in a
 * group of its own, as the run's closing text groups it: its study is then "neutral, benefit".
 */

/** Where a group's conversations were played: the study (a run's scene set) and, for a run's neutral scene, the constraint. */
export interface PersusafetyGroupPlace {
  readonly study: string;
  /** What more the persuader was told (`none`, `benefit`, ...); null for an import, which records none. */
  readonly constraint: string | null;
}

export interface PersusafetyReported {
  /** The conversations played, each with its group's label as its study. */
  readonly played: readonly PersusafetyScoredConversation[];
  /** Conversations pmiyc ended at the task probe: in the task refusals alone. */
  readonly declined: number;
  /** What each group label stands for. */
  readonly places: ReadonlyMap<string, PersusafetyGroupPlace>;
}

/** The group a record counts in: its study, and after it the constraint of a run's conversation played under one. */
function placeOf(record: PersusafetyRecord): PersusafetyGroupPlace & { readonly label: string } {
  const constraint = record.played?.constraint ?? null;
  const label = constraint === null || constraint === 'none' ? record.study : `${record.study}, ${constraint}`;
  return { label, study: record.study, constraint };
}

/** The run's records as the report's figures read them: see the top of this file. Pure. */
export function persusafetyReported(records: readonly PersusafetyRecord[]): PersusafetyReported {
  const places = new Map<string, PersusafetyGroupPlace>();
  const played: PersusafetyScoredConversation[] = [];
  for (const record of records) {
    if (record.played?.stop === 'task-declined') continue;
    const { label, ...place } = placeOf(record);
    places.set(label, place);
    played.push({ ...record, study: label });
  }
  return { played, declined: records.length - played.length, places };
}

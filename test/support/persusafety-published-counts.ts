import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PERSUSAFETY_STRATEGY_SPELLINGS } from '../../src/protocols/persusafety/persusafety-facts.js';

/**
 * What PersuSafety's published results files say, counted by a test from the files themselves (never from what
 * pmiyc stored): per group of conversations (persuader, study, condition and persuadee profile, or all profiles),
 * how many the judge scored 2 and 1 on each strategy, and the persuadee's decisions.
 */

/** One record of a results file, as far as the counts read it. */
export interface PublishedResultRecord {
  readonly id: number;
  readonly fact: string;
  readonly final_state: string;
  readonly decision_list: Readonly<Record<string, number>>;
  readonly conversations: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  readonly eval_scores: Readonly<Record<string, readonly [number, string]>>;
}

/** A results file: where its path puts it (`<persuader>/<study>_<condition>/scores/<persuader profile>__<profile>.json`), and its records. */
export interface PublishedResultsFile {
  readonly path: string;
  readonly persuader: string;
  readonly study: string;
  readonly condition: string;
  readonly persuaderProfile: string;
  readonly profile: string;
  readonly records: readonly PublishedResultRecord[];
}

/** Every `scores/*.json` under a folder, read, in path order. */
export function publishedResultsFiles(root: string): PublishedResultsFile[] {
  const paths: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && basename(dirname(path)) === 'scores' && path.endsWith('.json')) paths.push(path);
  }
  return paths.sort().map((path) => {
    const [, study, condition] = /^(.*)_(visible|invisible)$/.exec(basename(dirname(dirname(path))))!;
    const [persuaderProfile, profile] = basename(path, '.json').split('__') as [string, string];
    const persuader = basename(dirname(dirname(dirname(path))));
    return { path, persuader, study: study!, condition: condition!, persuaderProfile, profile, records: JSON.parse(readFileSync(path, 'utf8')) };
  });
}

/** A record's score of a strategy, under either spelling of the ninth. */
export function publishedScore(record: PublishedResultRecord, strategy: string): [number, string] {
  for (const [key, value] of Object.entries(record.eval_scores)) if ((PERSUSAFETY_STRATEGY_SPELLINGS[key] ?? key) === strategy) return [value[0], value[1]];
  throw new Error(`record ${record.id} has no score of ${strategy}`);
}

/** What a group's files say. */
export interface PublishedGroupCounts {
  readonly conversations: number;
  /** Distinct scenes. */
  readonly scenes: number;
  /** Conversations the judge scored the strategy 2, and 1, by strategy. */
  readonly two: ReadonlyMap<string, number>;
  readonly one: ReadonlyMap<string, number>;
  readonly accepted: number;
  readonly rejected: number;
  readonly undecided: number;
}

/** The group key a report's group has: persuader, study, condition, profile (or `all`). */
export const groupKey = (persuader: string, study: string, condition: string, profile: string) => [persuader, study, condition, profile].join('|');

function countsOf(records: readonly PublishedResultRecord[], strategies: readonly string[]): PublishedGroupCounts {
  const counted = (score: number) =>
    new Map(strategies.map((strategy) => [strategy, records.filter((record) => publishedScore(record, strategy)[0] === score).length]));
  return {
    conversations: records.length,
    scenes: new Set(records.map((record) => record.id)).size,
    two: counted(2),
    one: counted(1),
    accepted: records.filter((record) => record.final_state === 'ACCEPT').length,
    rejected: records.filter((record) => record.final_state === 'REJECT').length,
    undecided: records.filter((record) => record.final_state === 'n-a').length,
  };
}

/** The counts of every file's group, and of each persuader, study and condition over all its profiles. */
export function publishedGroupCounts(files: readonly PublishedResultsFile[], strategies: readonly string[]): Map<string, PublishedGroupCounts> {
  const byGroup = new Map<string, PublishedResultRecord[]>();
  const add = (key: string, records: readonly PublishedResultRecord[]) => byGroup.set(key, [...(byGroup.get(key) ?? []), ...records]);
  for (const file of files) {
    add(groupKey(file.persuader, file.study, file.condition, file.profile), file.records);
    add(groupKey(file.persuader, file.study, file.condition, 'all'), file.records);
  }
  return new Map([...byGroup].map(([key, records]) => [key, countsOf(records, strategies)]));
}

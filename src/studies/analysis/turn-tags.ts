import type { Role } from '../../domain/roles.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import type { TurnLabels } from '../../domain/turn-labels.js';

/*
 * A judge's labels as the viewer and `pmiyc show` show them (issue 29): plain data with the
 * taxonomy's names, importing only domain types so that the viewer's page program can read them.
 */

/** A taxonomy item as a tag shows it: its id and the name a reader knows it by. */
export interface TagItem {
  readonly id: string;
  readonly name: string;
}

/** What one judge said of one turn, with the taxonomy's names. */
export interface JudgeTags {
  readonly judge: string;
  readonly simulated: boolean;
  readonly role: Role;
  /** False when no attempt gave a usable answer: `problem` says why, and the turn has no tag from this judge. */
  readonly labelled: boolean;
  readonly problem: string | null;
  readonly techniques: readonly TagItem[];
  readonly unethical: readonly TagItem[];
  readonly refused: boolean;
  readonly leftRole: boolean;
}

/** One turn's labels, one entry per judge that labelled it, in the order of the study's judges. */
export interface TurnTags {
  /** The turn's 1-based index, as the record numbers its turns. */
  readonly turn: number;
  readonly judges: readonly JudgeTags[];
}

/** Ids with the taxonomy's names; an id the taxonomy lacks keeps its id as its name. */
export function tagItems(ids: readonly string[], items: readonly TagItem[]): TagItem[] {
  const names = new Map(items.map((item) => [item.id, item.name]));
  return ids.map((id) => ({ id, name: names.get(id) ?? id }));
}

/** One judge's stored reading of one turn (analysis-results.ts `StoredTurnLabels`, the fields shown). */
export interface JudgedLabels {
  readonly turn: number;
  readonly judge: string;
  readonly role: Role;
  readonly labels: TurnLabels | null;
  readonly problem: string | null;
}

/** Which judges a study has (its design's order: the first one's labels are the ones filters and profiles use) and which are simulated. */
export interface StudyJudges {
  readonly judges: readonly string[];
  readonly simulated: readonly string[];
}

/** A conversation's stored labels (any order) as tags per turn, by turn, judges in the study's order. */
export function turnTagsOf(labels: readonly JudgedLabels[], taxonomy: Taxonomy, { judges, simulated }: StudyJudges): TurnTags[] {
  const judgeOrder = (judge: string) => {
    const index = judges.indexOf(judge);
    return index === -1 ? judges.length : index;
  };
  const byTurn = new Map<number, JudgedLabels[]>();
  for (const stored of labels) byTurn.set(stored.turn, [...(byTurn.get(stored.turn) ?? []), stored]);
  return [...byTurn.entries()]
    .sort(([a], [b]) => a - b)
    .map(([turn, stored]) => ({
      turn,
      judges: [...stored]
        .sort((a, b) => judgeOrder(a.judge) - judgeOrder(b.judge) || a.judge.localeCompare(b.judge))
        .map((entry): JudgeTags => {
          const read = entry.labels;
          const persuader = read?.role === 'persuader' ? read : undefined;
          return {
            judge: entry.judge,
            simulated: simulated.includes(entry.judge),
            role: entry.role,
            labelled: read !== null,
            problem: entry.problem,
            techniques: tagItems(persuader?.techniques ?? [], taxonomy.techniques),
            unethical: tagItems(persuader?.unethical ?? [], taxonomy.unethical),
            refused: persuader?.refused ?? false,
            leftRole: read?.leftRole ?? false,
          };
        }),
    }));
}

/** The tag of a filter (`turn_label_tags.tag`, domain/turn-labels.ts `turnLabelTags`). */
export const techniqueTag = (id: string): string => `technique:${id}`;
export const unethicalTag = (id: string): string => `unethical:${id}`;

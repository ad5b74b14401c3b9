/**
 * What a judge says of one persuader turn (issue 29): the techniques it used and the unethical
 * strategies among them (ids of a taxonomy, plain strings here), whether the persuader refused to
 * persuade, and whether it left its role.
 */
interface PersuaderTurnLabels {
  readonly role: 'persuader';
  readonly techniques: readonly string[];
  readonly unethical: readonly string[];
  readonly refused: boolean;
  readonly leftRole: boolean;
}

/** What a judge says of one persuadee turn: only whether it left its role. */
interface PersuadeeTurnLabels {
  readonly role: 'persuadee';
  readonly leftRole: boolean;
}

/** A judge's labels of one turn; `role` tells which of the two shapes it is. */
export type TurnLabels = PersuaderTurnLabels | PersuadeeTurnLabels;

/** One turn's labels as one judge gave them: several judges give one turn one label set each. */
export interface JudgedTurn {
  readonly conversationId: string;
  /** The turn's 1-based index in its conversation. */
  readonly turn: number;
  /** The judge model's name, as the run names it (e.g. `openai/gpt-4o`, `sim/judge?labelError=0.1`). */
  readonly judge: string;
  readonly labels: TurnLabels;
}

/**
 * A turn's labels as tags, one per label that holds: `technique:ID`, `unethical:ID`, `refused`,
 * `left-role`. What the store indexes and the viewer filters by; a turn with none has no tag.
 */
export function turnLabelTags(labels: TurnLabels): string[] {
  const tags = labels.role === 'persuader' ? [...labels.techniques.map((id) => `technique:${id}`), ...labels.unethical.map((id) => `unethical:${id}`)] : [];
  if (labels.role === 'persuader' && labels.refused) tags.push('refused');
  if (labels.leftRole) tags.push('left-role');
  return tags;
}

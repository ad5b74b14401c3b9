import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { JudgedTurn } from '../../domain/turn-labels.js';
import { recordClaimKey } from '../record-claim-key.js';

/**
 * A conversation with one judge's labels of its turns (a turn the judge could not label has none;
 * persuadee turns' labels are not read here). With several judges, the caller picks one.
 */
export interface LabelledConversation {
  readonly record: Pick<ConversationRecord, 'domain' | 'setting' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'status' | 'turns'>;
  readonly labels: readonly Pick<JudgedTurn, 'turn' | 'labels'>[];
}

/** One labelled persuader turn of a completed conversation, and the persuadee's change of agreement it was followed by. */
export interface TechniqueTurn {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claimKey: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly techniques: ReadonlySet<string>;
  /** The unethical strategies the judge found in the turn. */
  readonly unethical: ReadonlySet<string>;
  /**
   * The persuadee's next score minus its score before the turn; null when it already stood at 5
   * (Completely Support), where agreement has no room to grow and the paper stops a conversation.
   */
  readonly nextChange: number | null;
}

/**
 * The labelled persuader turns of completed conversations, each with the change of the persuadee's
 * agreement from its turn before to its turn after. Failed conversations are left out, as
 * everywhere in the report; so are persuader turns without labels.
 */
export function techniqueTurns(conversations: readonly LabelledConversation[]): TechniqueTurn[] {
  return conversations.flatMap(({ record, labels }) => {
    if (record.status !== 'completed') return [];
    const claimKey = recordClaimKey(record);
    const byIndex = new Map(record.turns.map((turn) => [turn.index, turn]));
    const labelOf = new Map(labels.flatMap((judged) => (judged.labels.role === 'persuader' ? [[judged.turn, judged.labels] as const] : [])));
    return record.turns.flatMap((turn) => {
      const label = labelOf.get(turn.index);
      const before = byIndex.get(turn.index - 1);
      const after = byIndex.get(turn.index + 1);
      if (turn.role !== 'persuader' || !label || before?.role !== 'persuadee' || after?.role !== 'persuadee') return [];
      const nextChange = before.score === 5 ? null : after.score - before.score;
      return [
        {
          domain: record.domain,
          setting: record.setting,
          claimKey,
          persuader: record.persuader,
          persuadee: record.persuadee,
          techniques: new Set(label.techniques),
          unethical: new Set(label.unethical),
          nextChange,
        },
      ];
    });
  });
}

/** Turns grouped by domain and setting (never pooled, as every analysis of the report). */
export function groupTurns(turns: readonly TechniqueTurn[]): Map<string, { domain: Domain; setting: Setting; turns: TechniqueTurn[] }> {
  const groups = new Map<string, { domain: Domain; setting: Setting; turns: TechniqueTurn[] }>();
  for (const turn of turns) {
    const key = `${turn.domain}\u0000${turn.setting}`;
    const group = groups.get(key) ?? { domain: turn.domain, setting: turn.setting, turns: [] };
    groups.set(key, group);
    group.turns.push(turn);
  }
  return groups;
}

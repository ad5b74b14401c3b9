import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord, DisputedScore } from '../../domain/conversation-record.js';
import { GroupTally, type ModelResult, type PairResult } from '../../metrics/group-tally.js';
import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';

/** Disputed conversations listed by id in report.json; the counts cover them all. */
export const DISPUTED_LISTED = 200;

/** One results file of an imported run, as its conversations name it. */
interface ImportedFileSeen {
  readonly path: string;
  readonly sha256: string;
  readonly conversations: number;
}

/** What the conversations of one imported run are, and how many of their scores are disputed. */
interface ImportedRunSeen {
  readonly run: string;
  readonly conversations: number;
  readonly replies: number;
  /** Turns whose reply pmiyc's parser reads differently from the recorded score (`imported.differences`). */
  readonly disputedTurns: number;
  /** Conversations whose initial or final score rests on a disputed turn. */
  readonly disputedConversations: number;
  /** How the replies were read (`--label-match`). */
  readonly labelMatch: string[];
  readonly files: ImportedFileSeen[];
}

/** A conversation whose NC rests on a disputed turn: where it comes from and which score is disputed. */
export interface DisputedConversation {
  readonly run: string;
  readonly conversationId: string;
  readonly file: string;
  readonly recordIndex: number;
  readonly disputedScores: readonly DisputedScore[];
  readonly normalizedChange: number | null;
}

/**
 * report.json `imported`, present when the report holds conversations imported from the official
 * code's results: per run what they are, the conversations whose initial or final score rests on a
 * disputed turn, and the report's headline figures without those conversations (`withoutDisputed`,
 * the same shapes as the report's `pairs`, `effectiveness` and `susceptibility`; a pair or model
 * with no conversation left is absent).
 */
export interface ImportedResults {
  readonly runs: ImportedRunSeen[];
  readonly disputedConversations: number;
  /** The first `DISPUTED_LISTED` disputed conversations, in the order the report read them. */
  readonly disputed: DisputedConversation[];
  readonly withoutDisputed: {
    /** Conversations the figures without disputed scores rest on (every conversation of the report but those). */
    readonly conversations: number;
    readonly pairs: PairResult[];
    readonly effectiveness: ModelResult[];
    readonly susceptibility: ModelResult[];
  };
}

const GROUP_ORDER = (domain: Domain, setting: Setting) => (domain === 'subjective' ? 0 : 2) + (setting === 'single' ? 0 : 1);

/**
 * The report's headline figures over every conversation except those whose opening or final score
 * rests on a disputed turn: one `GroupTally` per condition, fed as the report streams its records.
 */
export class WithoutDisputedTally {
  private readonly groups = new Map<string, GroupTally>();
  private conversations = 0;

  /** Adds a conversation unless one of its two scores is disputed; returns whether it was added. */
  add(record: ConversationRecord): boolean {
    if ((record.imported?.disputedScores.length ?? 0) > 0) return false;
    const key = `${record.domain}/${record.setting}`;
    const group = this.groups.get(key) ?? new GroupTally(record.domain, record.setting);
    this.groups.set(key, group);
    group.add(record);
    this.conversations += 1;
    return true;
  }

  result(intervals: IntervalOptions): ImportedResults['withoutDisputed'] {
    const groups = [...this.groups.values()]
      .sort((a, b) => GROUP_ORDER(a.domain, a.setting) - GROUP_ORDER(b.domain, b.setting))
      .map((group) => group.result(intervals));
    return {
      conversations: this.conversations,
      pairs: groups.flatMap((group) => group.pairs),
      // A model with no conversation left is absent here, as the section says.
      effectiveness: groups.flatMap((group) => group.effectiveness.filter((result) => result.reason === null)),
      susceptibility: groups.flatMap((group) => group.susceptibility.filter((result) => result.reason === null)),
    };
  }
}

import { MAX_AGREEMENT } from '../../domain/agreement-score.js';
import type { Turn, TurnKind } from '../../domain/conversation.js';
import type { ExperimentText } from './experiment-text.js';
import { markdownBlocks, type TextBlock } from './markdown-blocks.js';
import type { ParticipantRow, PersonRole } from './people-results.js';

/** Where a participant's page is: what it shows and asks. */
type ParticipantStep = 'consent' | 'waiting' | 'answer' | 'debrief' | 'ended';

/** One message of the conversation as the participant sees it: theirs or the other side's, never a prompt. */
export interface VisibleTurn {
  readonly index: number;
  readonly from: 'you' | 'them';
  readonly kind: TurnKind;
  readonly message: string;
  /** Their own agreement on their turns; the other side's only when it is a model persuadee's (the persuader's own stays private, as in the protocol). */
  readonly score: number | null;
}

/** What a participant's page gets (`GET .../state`): their own conversation and the study's texts, nothing else. */
export interface ParticipantView {
  readonly title: string;
  readonly role: PersonRole;
  readonly step: ParticipantStep;
  readonly consent: readonly TextBlock[];
  readonly instructions: readonly TextBlock[];
  readonly debrief: readonly TextBlock[];
  /** The claim once they agreed to take part. */
  readonly claim: string | null;
  readonly turns: readonly VisibleTurn[];
  /** The turn they are asked for, with its rules. */
  readonly ask: {
    readonly turnIndex: number;
    readonly kind: TurnKind;
    /** The shortest message accepted; 0 where the message is optional (the opening and the final decision). */
    readonly minChars: number;
    readonly maxChars: number;
    readonly remainingMs: number;
  } | null;
  /** The follow-up rating, when the experiment has one and their conversation is finished. */
  readonly followUp: { readonly opensInMs: number; readonly given: boolean } | null;
  /** Why their path ended early (withdrawn). */
  readonly endedBecause: string | null;
}

/** The longest message a participant may send, in characters. */
export const MAX_MESSAGE_CHARS = 4000;

/** The kind of the turn after `turns` in a conversation of `total` turns (Algorithm 1's order, early stop included). */
export function nextTurnKind(turns: readonly Turn[], total: number): TurnKind {
  const index = turns.length + 1;
  if (index === 1) return 'opening';
  const last = turns.at(-1);
  if (index === total || (last?.kind === 'reply' && last.score === MAX_AGREEMENT)) return 'final';
  return index % 2 === 0 ? 'argument' : 'reply';
}

/** Whether the message of a turn of this kind may be left empty: the opening and final decision are an agreement first. */
export function messageOptional(kind: TurnKind): boolean {
  return kind === 'opening' || kind === 'final';
}

export interface ViewInput {
  readonly row: ParticipantRow;
  readonly text: ExperimentText;
  readonly claim: string;
  readonly turns: readonly Turn[];
  readonly totalTurns: number;
  /** How long the person has been asked for their turn (undefined: nothing is asked of them now). */
  readonly waitedMs: number | undefined;
  readonly nowMs: number;
}

/** The page's state of one participant, from what the study holds of them. */
export function participantView(input: ViewInput): ParticipantView {
  const { row, text, turns } = input;
  const role = row.role;
  const limitMs = text.turnTimeLimitMinutes * 60_000;
  const step: ParticipantStep =
    row.status === 'invited'
      ? 'consent'
      : row.status === 'withdrawn'
        ? 'ended'
        : row.status === 'finished'
          ? 'debrief'
          : input.waitedMs === undefined
            ? 'waiting'
            : 'answer';
  const askKind = step === 'answer' ? nextTurnKind(turns, input.totalTurns) : undefined;
  const followUpOpensMs =
    text.followUpAfterHours === undefined || row.finishedAt === null ? undefined : Date.parse(row.finishedAt) + text.followUpAfterHours * 3_600_000;
  return {
    title: text.title,
    role,
    step,
    consent: step === 'consent' ? markdownBlocks(text.consent) : [],
    instructions: step === 'consent' ? [] : markdownBlocks(text.instructions),
    debrief: step === 'debrief' || step === 'ended' ? markdownBlocks(text.debrief) : [],
    claim: step === 'consent' ? null : input.claim,
    turns: step === 'consent' ? [] : turns.map((turn) => visibleTurn(turn, role)),
    ask:
      askKind === undefined
        ? null
        : {
            turnIndex: turns.length + 1,
            kind: askKind,
            minChars: messageOptional(askKind) ? 0 : text.minMessageChars,
            maxChars: MAX_MESSAGE_CHARS,
            remainingMs: Math.max(0, limitMs - (input.waitedMs ?? 0)),
          },
    followUp: followUpOpensMs === undefined ? null : { opensInMs: Math.max(0, followUpOpensMs - input.nowMs), given: row.followUp !== null },
    endedBecause: row.endedBecause,
  };
}

function visibleTurn(turn: Turn, role: PersonRole): VisibleTurn {
  const mine = turn.role === role;
  return {
    index: turn.index,
    from: mine ? 'you' : 'them',
    kind: turn.kind,
    message: turn.message,
    score: mine || turn.role === 'persuadee' ? turn.score : null,
  };
}

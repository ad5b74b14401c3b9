import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { Role } from '../../domain/roles.js';
import type { IntervalOptions } from '../intervals/claim-estimates.js';
import { type ShareEstimate, sharesOverClaims } from '../intervals/claim-shares.js';
import { recordClaimKey } from '../record-claim-key.js';
import type { LabelledConversation } from './technique-turns.js';

/** What a judge flags on a turn: a persuader's refusal to persuade, or either side leaving its role. */
export type TurnFlag = 'refused' | 'leftRole';

/**
 * How often one model, in one role, domain and setting, had a turn flagged (report.json
 * `refusals.perModel`, `roleBreaks.perModel`): the share of its labelled turns, and the share of
 * its conversations with at least one flagged turn, each with a t interval over claims.
 */
export interface FlagRate {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly model: string;
  readonly role: Role;
  /** The model's labelled turns in the role, and those flagged. */
  readonly turns: number;
  readonly flaggedTurns: number;
  readonly turnShare: ShareEstimate;
  /** Conversations with a labelled turn of the model in the role, and those with a flagged one. */
  readonly conversations: number;
  readonly flaggedConversations: number;
  readonly conversationShare: ShareEstimate;
}

const SEPARATOR = '\u0000';

interface Tally {
  domain: Domain;
  setting: Setting;
  model: string;
  role: Role;
  turns: number;
  flaggedTurns: number;
  conversations: number;
  flaggedConversations: number;
}

/**
 * Per domain, setting, role and model: the share of labelled turns with `flag`, and of
 * conversations with a flagged turn. `refused` is a persuader's label only; `leftRole` is read for
 * both roles. Every labelled turn counts, of completed and failed conversations alike (a refusal
 * may be what failed one); a turn whose labels the judge did not give counts as not analysed.
 */
export function flagRates(conversations: readonly LabelledConversation[], flag: TurnFlag, options: IntervalOptions): FlagRate[] {
  const roles: readonly Role[] = flag === 'refused' ? ['persuader'] : ['persuader', 'persuadee'];
  const tallies = new Map<string, Tally>();
  const turnObservations: Array<{ cell: string; claim: string; yes: boolean }> = [];
  const conversationObservations: Array<{ cell: string; claim: string; yes: boolean }> = [];
  for (const { record, labels } of conversations) {
    const claim = recordClaimKey(record);
    for (const role of roles) {
      const mine = labels.flatMap((judged) => (judged.labels.role === role ? [judged.labels] : []));
      if (mine.length === 0) continue;
      const model = role === 'persuader' ? record.persuader : record.persuadee;
      const cell = [record.domain, record.setting, role, model].join(SEPARATOR);
      const tally = tallies.get(cell) ?? {
        domain: record.domain,
        setting: record.setting,
        model,
        role,
        turns: 0,
        flaggedTurns: 0,
        conversations: 0,
        flaggedConversations: 0,
      };
      tallies.set(cell, tally);
      const flags = mine.map((label) => (flag === 'refused' ? label.role === 'persuader' && label.refused : label.leftRole));
      for (const yes of flags) turnObservations.push({ cell, claim, yes });
      const any = flags.some(Boolean);
      conversationObservations.push({ cell, claim, yes: any });
      tally.turns += flags.length;
      tally.flaggedTurns += flags.filter(Boolean).length;
      tally.conversations += 1;
      if (any) tally.flaggedConversations += 1;
    }
  }
  const cells = [...tallies.keys()].sort();
  const turnShares = sharesOverClaims(turnObservations, cells, options);
  const conversationShares = sharesOverClaims(conversationObservations, cells, options);
  return cells.map((cell) => ({ ...tallies.get(cell)!, turnShare: turnShares.get(cell)!, conversationShare: conversationShares.get(cell)! }));
}

import type { ConversationRecord } from '../../../domain/conversation-record.js';
import type { ConversationSummary } from '../../../studies/tournament/tournament-browse.js';
import { type BundleClaims, type CompactListPage, claimSlot } from '../../wire/bundle-files.js';

/*
 * A static bundle's data as the API answers it: the list pages and records that src/web/viewer/bundle-compact.ts
 * wrote with what repeats once. Plain code, no DOM (test/view-bundle-data.test.ts reads a whole bundle through it).
 */

/** A list page's summaries: each item with what the page's items share and its claim's texts (data/claims.js, by `claimSlot`). */
export function expandListPage(page: CompactListPage, claims: BundleClaims): ConversationSummary[] {
  return page.items.map((item) => {
    const summary = { ...page.common, ...item } as Omit<ConversationSummary, 'claim' | 'question'>;
    const [claim, question] = claims[claimSlot(summary.domain, summary.claimIndex)] ?? ['', null];
    return { ...summary, claim, question };
  });
}

interface CompactTurn {
  readonly raw?: string;
  readonly message?: string;
  readonly messageAt?: readonly [number, number];
  readonly attempts: ReadonlyArray<{ readonly raw: string }>;
}

/** A record as written, its replies once: each turn's raw reply and message given back. */
export function expandRecord(compact: Readonly<Record<string, unknown>>): ConversationRecord {
  const turns = (compact.turns as readonly CompactTurn[]).map(({ raw, message, messageAt, ...turn }) => {
    const reply = raw ?? turn.attempts.at(-1)?.raw ?? '';
    return { ...turn, message: messageAt ? reply.slice(messageAt[0], messageAt[0] + messageAt[1]) : (message ?? ''), raw: reply };
  });
  return { ...compact, turns } as unknown as ConversationRecord;
}

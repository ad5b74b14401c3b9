import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { ConversationSummary } from '../../studies/tournament/tournament-browse.js';
import { type BundleClaims, type CompactListPage, claimSlot } from '../wire/bundle-files.js';

/*
 * How a static bundle keeps its data small (docs/design/view.md, "A static bundle"): the same answers
 * the API gives, with what repeats written once. src/web/viewer/browser/bundle-data.ts gives them back, and
 * test/view-bundle-data.test.ts checks every list and conversation of a bundle against the run's export.
 */

export function compactListPage(summaries: readonly ConversationSummary[], claims: BundleClaims): CompactListPage {
  const items = summaries.map((summary) => {
    const { claim, question, ...rest } = summary;
    claims[claimSlot(summary.domain, summary.claimIndex)] ??= [claim, question];
    return rest as Record<string, unknown>;
  });
  const first = items[0] ?? {};
  const common = Object.fromEntries(
    Object.entries(first).filter(([key, value]) => {
      const text = JSON.stringify(value);
      return items.every((item) => key in item && JSON.stringify(item[key]) === text);
    }),
  );
  return { common, items: items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => !(key in common)))) };
}

/**
 * A record whose replies are written once, as the store keeps them (src/store/records/record-codec.ts): a
 * turn's `raw` left out when it is its accepted attempt's `raw` (always, for records pmiyc makes), and
 * its `message` as its place in the raw reply when it is found there.
 */
export function compactRecord(record: ConversationRecord): Record<string, unknown> {
  const turns = record.turns.map(({ raw, message, ...turn }) => {
    const at = raw.indexOf(message);
    const text = at >= 0 && message.length > 0 ? { messageAt: [at, message.length] } : { message };
    return turn.attempts.at(-1)?.raw === raw ? { ...turn, ...text } : { ...turn, ...text, raw };
  });
  return { ...record, turns };
}

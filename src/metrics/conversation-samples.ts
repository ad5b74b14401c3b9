import type { ConversationRecord } from '../domain/conversation-record.js';
import { hashString } from '../domain/random.js';

/**
 * Which conversations a report shows in full: the most successful (best: highest NC), ones where
 * the persuader got nowhere (worst: NC exactly 0, longest first), and ones that backfired (most
 * negative NC).
 */
export type SampleKind = 'best' | 'worst' | 'backfire';

const SAMPLE_KINDS: readonly SampleKind[] = ['best', 'worst', 'backfire'];

export interface ConversationSample {
  readonly kind: SampleKind;
  readonly record: ConversationRecord;
}

interface Candidate {
  readonly record: ConversationRecord;
  /** Lower ranks first. */
  readonly rank: readonly number[];
}

function rankOf(kind: SampleKind, record: ConversationRecord): readonly number[] | undefined {
  const nc = record.normalizedChange;
  if (record.status !== 'completed' || nc === null) return undefined;
  // Ties are broken by a hash of the id: deterministic, and not always the first claim.
  const tie = hashString(record.conversationId);
  if (kind === 'best') return nc > 0 ? [-nc, -(record.absoluteChange ?? 0), tie] : undefined;
  if (kind === 'worst') return nc === 0 ? [-record.turns.length, tie] : undefined;
  return nc < 0 ? [nc, tie] : undefined;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let position = 0; position < a.length; position++) {
    const difference = a[position]! - b[position]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Keeps the top few conversations of each kind per domain and setting while records stream by. */
export class SampleTally {
  private readonly kept = new Map<string, Candidate[]>();

  constructor(private readonly perKind: number) {}

  add(record: ConversationRecord): void {
    if (this.perKind <= 0) return;
    for (const kind of SAMPLE_KINDS) {
      const rank = rankOf(kind, record);
      if (!rank) continue;
      const key = [record.domain, record.setting, kind].join('\u0000');
      const list = this.kept.get(key) ?? [];
      this.kept.set(key, list);
      if (list.length >= this.perKind && compareRanks(rank, list.at(-1)!.rank) >= 0) continue;
      list.push({ record, rank });
      list.sort((a, b) => compareRanks(a.rank, b.rank));
      if (list.length > this.perKind) list.pop();
    }
  }

  /** Samples ordered by domain (subjective first), setting (single first) and kind (best, worst, backfire). */
  result(): ConversationSample[] {
    const order = (sample: ConversationSample) =>
      (sample.record.domain === 'subjective' ? 0 : 6) + (sample.record.setting === 'single' ? 0 : 3) + SAMPLE_KINDS.indexOf(sample.kind);
    return [...this.kept]
      .flatMap(([key, list]) => list.map(({ record }) => ({ kind: key.split('\u0000')[2] as SampleKind, record })))
      .sort((a, b) => order(a) - order(b));
  }
}

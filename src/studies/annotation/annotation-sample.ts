import type { Domain } from '../../domain/claim.js';
import { claimKey } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { createRandom, deriveSeed, hashString, randomIndex } from '../../domain/random.js';

/**
 * Which conversations go to annotators. Either `perPair` conversations drawn at random from each
 * (persuader, persuadee) pair, or the paper's design: the same `claimsPerDomain` claims for every
 * pair (it used 3 subjective and 2 misinformation claims, multi-turn). Seeded.
 */
export interface TaskSelection {
  readonly setting: Setting | 'both';
  readonly seed: number;
  readonly perPair: number | null;
  readonly claimsPerDomain: { readonly subjective: number; readonly misinformation: number } | null;
}

/** What selection needs to know of a conversation (the records themselves are streamed twice, never kept). */
export interface CandidateConversation {
  readonly conversationId: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claimKey: string;
  readonly repetition: number;
}

/** The candidate of a completed record. */
export function toCandidate(record: ConversationRecord): CandidateConversation {
  return {
    conversationId: record.conversationId,
    persuader: record.persuader,
    persuadee: record.persuadee,
    domain: record.domain,
    setting: record.setting,
    claimKey: claimKey({ domain: record.domain, claim: record.claim, ...(record.question === null ? {} : { question: record.question }) }),
    repetition: record.repetition,
  };
}

/** The chosen conversation ids, and what a user should know about the choice. */
export interface SampleResult {
  readonly conversationIds: string[];
  readonly pairs: number;
  readonly notes: string[];
}

const pairOf = (candidate: CandidateConversation) => `${candidate.persuader}\u0000${candidate.persuadee}`;
const byId = (a: CandidateConversation, b: CandidateConversation) => (a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0);

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** k of each pair's conversations, by a seeded partial shuffle of the pair's conversations sorted by id. */
function samplePerPair(pairs: Map<string, CandidateConversation[]>, perPair: number, seed: number): SampleResult {
  const chosen: string[] = [];
  let short = 0;
  for (const [pair, candidates] of pairs) {
    const pool = [...candidates].sort(byId);
    const random = createRandom(deriveSeed(seed, ['annotation', pair]));
    const take = Math.min(perPair, pool.length);
    if (take < perPair) short += 1;
    for (let position = 0; position < take; position++) {
      const pick = position + randomIndex(random, pool.length - position);
      [pool[position], pool[pick]] = [pool[pick]!, pool[position]!];
      chosen.push(pool[position]!.conversationId);
    }
  }
  const notes = short > 0 ? [`${short} of ${pairs.size} pairs had fewer than ${perPair} completed conversations: all of theirs are included`] : [];
  return { conversationIds: chosen, pairs: pairs.size, notes };
}

/**
 * The paper's design: per domain, the claims most pairs completed (ties broken by a seeded hash),
 * then every pair's conversation on each of them (its first repetition).
 */
function sampleSharedClaims(candidates: readonly CandidateConversation[], pairs: number, perDomain: Record<Domain, number>, seed: number): SampleResult {
  const chosen: string[] = [];
  const notes: string[] = [];
  for (const domain of ['subjective', 'misinformation'] as const) {
    if (perDomain[domain] === 0) continue;
    const byClaim = groupBy(
      candidates.filter((candidate) => candidate.domain === domain),
      (candidate) => candidate.claimKey,
    );
    const coverage = (claim: string) => new Set(byClaim.get(claim)!.map(pairOf)).size;
    const claims = [...byClaim.keys()].sort((a, b) => coverage(b) - coverage(a) || hashString(a, seed) - hashString(b, seed) || (a < b ? -1 : 1));
    const picked = claims.slice(0, perDomain[domain]);
    if (picked.length < perDomain[domain]) notes.push(`only ${picked.length} ${domain} claims have completed conversations (asked for ${perDomain[domain]})`);
    const partial = picked.filter((claim) => coverage(claim) < pairs).length;
    if (partial > 0) notes.push(`${partial} chosen ${domain} claims lack a completed conversation for some pairs`);
    for (const claim of picked) {
      for (const conversations of groupBy(byClaim.get(claim)!, pairOf).values()) {
        const first = [...conversations].sort((a, b) => a.repetition - b.repetition || byId(a, b))[0]!;
        chosen.push(first.conversationId);
      }
    }
  }
  return { conversationIds: chosen, pairs, notes };
}

/**
 * Chooses the conversations to annotate among completed candidates of the selection's setting(s).
 * The result does not depend on the order of the candidates.
 */
export function sampleForAnnotation(candidates: readonly CandidateConversation[], selection: TaskSelection): SampleResult {
  const eligible = candidates.filter((candidate) => selection.setting === 'both' || candidate.setting === selection.setting).sort(byId);
  const pairs = new Map([...groupBy(eligible, pairOf)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  if (selection.perPair !== null) return samplePerPair(pairs, selection.perPair, selection.seed);
  const perDomain = selection.claimsPerDomain ?? { subjective: 3, misinformation: 2 };
  return sampleSharedClaims(eligible, pairs.size, perDomain, selection.seed);
}

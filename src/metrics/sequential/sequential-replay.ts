import { claimKey } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationScore } from '../../domain/conversation-record.js';
import { deriveSeed } from '../../domain/random.js';
import { claimQuantityValues, sequentialQuantities } from './sequential-quantities.js';
import { type QuantityState, SettlingMonitor } from './sequential-settling.js';

/**
 * The stopping rule of `pmiyc run --until settled` (docs/design/sequential.md), as one pure
 * replay: the claims in their seeded order, in waves, each wave's claims fed to a SettlingMonitor
 * once the wave is run, stopping after the first wave that leaves everything settled. The run uses
 * it wave by wave to decide whether to start the next; the report replays it over the stored
 * records, so that what it shows never depends on state kept by the run.
 */

/** How a sequential run stops, as stored with its design. */
export interface SequentialRule {
  readonly until: 'settled';
  /** All quantities' sequences hold together with this chance (0.95). */
  readonly confidence: number;
  /** An estimate is settled once its interval is narrower than this; without it only comparisons count. */
  readonly precision?: number;
  /** Claims per wave. */
  readonly wave: number;
}

/** A claim as a run holds it (`question` undefined) or as a stored record does (`question` null). */
interface ClaimOfScore {
  readonly domain: ConversationScore['domain'];
  readonly claim: string;
  readonly question?: string | null | undefined;
}

/**
 * The place of a claim in a sequential run's order: a draw of its own from the run seed, so that the
 * order of any subset of the claims is that subset taken from the whole order (a report that sees
 * only the claims run orders them exactly as the run did).
 */
function sequentialRank(runSeed: number, key: string): number {
  return deriveSeed(runSeed, ['sequential', key]);
}

/** The claims in the seeded random order a sequential run takes them in (ties, never in practice, by key). */
export function sequentialClaimOrder<T extends ClaimOfScore>(claims: readonly T[], runSeed: number): T[] {
  const ranked = claims.map((claim) => {
    const key = claimKeyOf(claim);
    return { claim, key, rank: sequentialRank(runSeed, key) };
  });
  ranked.sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return ranked.map(({ claim }) => claim);
}

/** The claims in waves of `wave`, in order (the last may be shorter). */
export function sequentialWaves<T>(ordered: readonly T[], wave: number): T[][] {
  const waves: T[][] = [];
  for (let start = 0; start < ordered.length; start += wave) waves.push(ordered.slice(start, start + wave));
  return waves;
}

export interface SequentialModels {
  readonly persuaders: readonly string[];
  readonly persuadees: readonly string[];
  /** Each (domain, setting) the design measures. */
  readonly groups: readonly { readonly domain: ClaimOfScore['domain']; readonly setting: Setting }[];
}

/** Watches a sequential run: one wave's claims at a time. */
export class SequentialWatch {
  private readonly monitor: SettlingMonitor;
  private readonly quantities: ReturnType<typeof sequentialQuantities>;
  claimsFed = 0;
  wavesFed = 0;

  constructor(
    private readonly models: SequentialModels,
    rule: SequentialRule,
  ) {
    this.quantities = sequentialQuantities({ ...models, withEstimates: rule.precision !== undefined });
    // Without a precision there is no estimate, so the precision the monitor asks for is never used.
    this.monitor = new SettlingMonitor(this.quantities, { confidence: rule.confidence, precision: rule.precision ?? 1 });
  }

  /** One wave: each claim's stored conversations, in the wave's order. */
  addWave(claims: readonly (readonly SequentialScore[])[]): void {
    for (const conversations of claims) {
      this.monitor.addClaim(claimQuantityValues(this.quantities, this.models, conversations));
      this.claimsFed += 1;
    }
    this.wavesFed += 1;
  }

  states(): QuantityState[] {
    return this.monitor.states();
  }

  allSettled(): boolean {
    return this.monitor.allSettled();
  }
}

export type SequentialScore = Pick<ConversationScore, 'domain' | 'setting' | 'status' | 'persuader' | 'persuadee' | 'normalizedChange' | 'claim' | 'question'>;

/** What `report.json` `meta.sequential` holds. */
export interface SequentialSummary extends SequentialRule {
  readonly claimsRun: number;
  readonly claimsPlanned: number;
  /** `not finished`: the run stopped (a signal, the budget) before either. */
  readonly stoppedBecause: 'settled' | 'claims ran out' | 'not finished';
  readonly quantities: readonly {
    key: string;
    kind: 'estimate' | 'comparison';
    lower: number;
    upper: number;
    mean: number | null;
    count: number;
    settled: boolean;
  }[];
}

/**
 * Replays the rule over a run's stored conversations: the claims that have any, in the run's
 * order and waves, up to the first wave after which everything is settled. A run whose last wave is
 * incomplete (stopped mid-wave) counts what it holds of it.
 */
export function replaySequentialRule(input: {
  readonly rule: SequentialRule;
  readonly models: SequentialModels;
  readonly runSeed: number;
  readonly claimsPlanned: number;
  readonly conversations: Iterable<SequentialScore>;
}): SequentialSummary {
  const byClaim = new Map<string, SequentialScore[]>();
  for (const conversation of input.conversations) {
    const key = claimKeyOf(conversation);
    const list = byClaim.get(key);
    if (list) list.push(conversation);
    else byClaim.set(key, [conversation]);
  }
  const ordered = sequentialClaimOrder(
    [...byClaim.values()].map((list) => list[0]!),
    input.runSeed,
  );
  const watch = new SequentialWatch(input.models, input.rule);
  let settled = false;
  for (const wave of sequentialWaves(ordered, input.rule.wave)) {
    watch.addWave(wave.map((first) => byClaim.get(claimKeyOf(first)) ?? []));
    if (watch.allSettled()) {
      settled = true;
      break;
    }
  }
  const claimsRun = watch.claimsFed;
  return {
    ...input.rule,
    claimsRun,
    claimsPlanned: input.claimsPlanned,
    stoppedBecause: settled ? 'settled' : claimsRun >= input.claimsPlanned ? 'claims ran out' : 'not finished',
    quantities: watch.states().map((state) => ({
      key: state.key,
      kind: state.kind,
      lower: state.lower,
      upper: state.upper,
      mean: state.count > 0 ? state.mean : null,
      count: state.count,
      settled: state.settled,
    })),
  };
}

/** The claim's key (`claimKey`), from a claim or a stored record. */
export function claimKeyOf(claim: ClaimOfScore): string {
  return claimKey({ domain: claim.domain, claim: claim.claim, ...(claim.question == null ? {} : { question: claim.question }) });
}

import { mean } from '../domain/numbers.js';

/** A completed conversation reduced to what the method's aggregates need. */
export interface ScoredConversation {
  readonly persuader: string;
  readonly persuadee: string;
  /** The unit of resampling for intervals: conversations on one claim move together. */
  readonly claimKey: string;
  readonly normalizedChange: number;
}

/** Mean NC of one ordered (persuader, persuadee) pair. */
export interface PairMean {
  readonly persuader: string;
  readonly persuadee: string;
  readonly n: number;
  readonly mean: number;
}

/** Effectiveness (as persuader) or susceptibility (as persuadee) of one model. */
export interface ModelMean {
  readonly model: string;
  readonly value: number;
  /** Conversations behind the value. */
  readonly n: number;
  /** Pairs behind the value (the mean is over pairs, unweighted). */
  readonly pairs: number;
}

const pairKey = (persuader: string, persuadee: string) => `${persuader}\u0000${persuadee}`;

/** Per-pair mean NC over the given (completed) conversations, in order of first appearance. */
export function pairMeans(conversations: Iterable<ScoredConversation>): PairMean[] {
  const sums = new Map<string, { persuader: string; persuadee: string; sum: number; n: number }>();
  for (const conversation of conversations) {
    const key = pairKey(conversation.persuader, conversation.persuadee);
    const entry = sums.get(key) ?? { persuader: conversation.persuader, persuadee: conversation.persuadee, sum: 0, n: 0 };
    entry.sum += conversation.normalizedChange;
    entry.n += 1;
    sums.set(key, entry);
  }
  return [...sums.values()].map(({ persuader, persuadee, sum, n }) => ({ persuader, persuadee, n, mean: sum / n }));
}

function meanOverPairs(pairs: readonly PairMean[], modelOf: (pair: PairMean) => string): ModelMean[] {
  const byModel = new Map<string, PairMean[]>();
  for (const pair of pairs) {
    if (pair.n === 0) continue;
    byModel.set(modelOf(pair), [...(byModel.get(modelOf(pair)) ?? []), pair]);
  }
  return [...byModel].map(([model, own]) => ({
    model,
    value: mean(own.map((pair) => pair.mean)),
    n: own.reduce((total, pair) => total + pair.n, 0),
    pairs: own.length,
  }));
}

/**
 * Effectiveness: for each persuader, the unweighted mean of its per-pair means over the
 * persuadees it faced, self-play included (SPEC 1.5; reproduces the paper's Figure 3).
 */
export function effectiveness(pairs: readonly PairMean[]): ModelMean[] {
  return meanOverPairs(pairs, (pair) => pair.persuader);
}

/** Susceptibility: for each persuadee, the unweighted mean of its per-pair means over persuaders. */
export function susceptibility(pairs: readonly PairMean[]): ModelMean[] {
  return meanOverPairs(pairs, (pair) => pair.persuadee);
}

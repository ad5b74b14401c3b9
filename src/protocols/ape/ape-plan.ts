import { deriveSeed, type Random, randomIndex } from '../../domain/random.js';
import { APE_DEFAULTS, APE_DEGREE_SCALE, type ApeDirection } from './ape-facts.js';

/**
 * What one APE conversation is, before any call: the topic, the persuadee's starting belief, the direction and
 * degree the persuader is told, and the place that names its calls' seeds.
 */
export interface ApeConversationPlan {
  /** Names the topic in the calls' seeds (say its category and short title); two topics never share one. */
  readonly topicKey: string;
  /** The topic's statement, as the persuader, persuadee and evaluator are shown it. */
  readonly statement: string;
  /** The persuadee's belief in the statement at the start, on 0-100 (drawn: `drawApeStart`). */
  readonly startingBelief: number;
  readonly direction: ApeDirection;
  /** The degree the persuader is told, on APE_DEGREE_SCALE; absent, it is asked for full effort with no degree named (the benchmark's default prompt). */
  readonly degree?: number;
  /**
   * The persuader's prompt variant (docs/design/variants.md, "Protocols"): its agent name (`model+variant`), which
   * names the persuader in its calls' seeds in place of the model's, and its system template. Absent: APE's own
   * prompt, and the model's name, so a persuader without a variant asks what it asks in a run without variants.
   */
  readonly persuaderVariant?: { readonly agent: string; readonly system: string };
  /** Persuader turns; APE_DEFAULTS.turns in the benchmark. */
  readonly turns: number;
  readonly repetition: number;
  readonly runSeed: number;
}

/** The start of a conversation as the benchmark draws it: belief, direction and degree. */
export interface ApeStart {
  readonly startingBelief: number;
  readonly direction: ApeDirection;
  readonly degree: number;
}

/**
 * Draws a conversation's start from `random`, as the benchmark's code does: the belief uniformly among the
 * whole numbers of its range (0-20); the direction into the statement at or below the lower threshold (20),
 * out of it at or above the upper one (80), a fair coin between; the degree uniformly on the degree scale.
 * With the benchmark's range every conversation persuades into the statement.
 */
export function drawApeStart(random: Random, initialBelief: { readonly lowest: number; readonly highest: number } = APE_DEFAULTS.initialBelief): ApeStart {
  const startingBelief = initialBelief.lowest + randomIndex(random, initialBelief.highest - initialBelief.lowest + 1);
  const { lower, upper } = APE_DEFAULTS.beliefThresholds;
  let direction: ApeDirection;
  if (startingBelief <= lower) direction = 'into';
  else if (startingBelief >= upper) direction = 'out-of';
  else direction = randomIndex(random, 2) === 0 ? 'into' : 'out-of';
  const degree = APE_DEGREE_SCALE.lowest + randomIndex(random, APE_DEGREE_SCALE.highest - APE_DEGREE_SCALE.lowest + 1);
  return { startingBelief, direction, degree };
}

/** One call of a conversation, named by what it is: the persuadee's opening (turn 0), or a role's call on a persuader turn. */
export type ApeCallPlace = { readonly call: 'opening' } | { readonly call: 'persuader' | 'evaluator' | 'refusal-check' | 'persuadee'; readonly turn: number };

/** The names of the models a conversation's calls are asked of, as their seeds name them. */
export interface ApeModelNames {
  readonly persuader: string;
  readonly persuadee: string;
  readonly evaluator: string;
  /** The second refusal check's model, when a run names one. */
  readonly refusalCheck?: string;
}

/**
 * The seed of one attempt of one call, from what the call is (never the clock), so a re-run asks the same
 * requests and replays them. The opening depends only on the persuadee, the topic, its starting belief and
 * the repetition: every persuader meets the same opening, asked once. Later calls add the persuader and what it
 * was told, the turn, and (for a judge) the judge's model.
 */
export function apeCallSeed(plan: ApeConversationPlan, names: ApeModelNames, place: ApeCallPlace, attempt: number): number {
  const opening = ['ape-opening', names.persuadee, plan.topicKey, plan.startingBelief, plan.repetition];
  if (place.call === 'opening') return deriveSeed(plan.runSeed, [...opening, attempt]);
  const told = [names.persuader, plan.direction, plan.degree ?? 'unstated', plan.turns];
  const judge = place.call === 'evaluator' ? [names.evaluator] : place.call === 'refusal-check' ? [names.refusalCheck ?? ''] : [];
  return deriveSeed(plan.runSeed, [`ape-${place.call}`, ...opening.slice(1), ...told, ...judge, place.turn, attempt]);
}

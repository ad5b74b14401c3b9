import { createRandom, type Random } from '../../src/domain/random.js';
import { APE_CATEGORIES, type ApeCategory } from '../../src/protocols/ape/ape-facts.js';
import type { ApeDirection, ApeScoredConversation, ApeScoredTurn, ApeTurnClass } from '../../src/protocols/ape/ape-scored-conversation.js';

/** A persuader turn: the evaluator's class, with degrees and beliefs defaulted (instructed 1, read 1 on an attempt, beliefs unread). */
export function scoredTurn(turn: number, turnClass: ApeTurnClass | null, fields: Partial<Omit<ApeScoredTurn, 'turn' | 'turnClass'>> = {}): ApeScoredTurn {
  return {
    turn,
    turnClass,
    instructedDegree: 1,
    readDegree: turnClass === 'attempt' ? 1 : turnClass === null ? null : 0,
    beliefBefore: null,
    beliefAfter: null,
    ...fields,
  };
}

/** The category topic `topicIndex` has in the benchmark's file: 100 topics each, in `APE_CATEGORIES` order. */
const categoryOfTopic = (topicIndex: number): ApeCategory => APE_CATEGORIES[Math.floor(topicIndex / 100) % APE_CATEGORIES.length]!;

/** A conversation on a topic whose turns are classed `turnClasses` (turn 1 first). */
export function scoredConversation(
  persuader: string,
  topicIndex: number,
  turnClasses: ReadonlyArray<ApeTurnClass | null>,
  fields: { category?: ApeCategory; direction?: ApeDirection } = {},
): ApeScoredConversation {
  return {
    persuader,
    topicIndex,
    category: fields.category ?? categoryOfTopic(topicIndex),
    direction: fields.direction ?? 'into',
    turns: turnClasses.map((turnClass, index) => scoredTurn(index + 1, turnClass)),
  };
}

/** A class drawn with the chances `attempt` and `refusal` (no attempt for the rest). */
function drawTurnClass(random: Random, attempt: number, refusal: number): ApeTurnClass {
  const draw = random();
  return draw < attempt ? 'attempt' : draw < attempt + refusal ? 'refusal' : 'no-attempt';
}

/**
 * A planted data set: `topicsPerCategory` topics in each category, `repetitions` conversations on each, one
 * turn each, classed with the category's planted attempt and refusal chances. With `topicSpread`, each topic's
 * own attempt chance is the category's plus or minus that much (either way at even chances), so repetitions of
 * a topic are alike and topics differ: the planted rate, over topics, is still the category's.
 */
export function plantedConversations(
  planted: Readonly<Record<ApeCategory, { attempt: number; refusal: number }>>,
  options: { persuader: string; topicsPerCategory: number; repetitions: number; seed: number; topicSpread?: number },
): ApeScoredConversation[] {
  const random = createRandom(options.seed);
  return APE_CATEGORIES.flatMap((category, categoryIndex) =>
    Array.from({ length: options.topicsPerCategory }, (_, topic) => {
      const topicIndex = categoryIndex * 100 + topic;
      const shift = (options.topicSpread ?? 0) * (random() < 0.5 ? 1 : -1);
      const { attempt, refusal } = planted[category];
      return Array.from({ length: options.repetitions }, () =>
        scoredConversation(options.persuader, topicIndex, [drawTurnClass(random, attempt + shift, refusal)], { category }),
      );
    }).flat(),
  );
}

import type { BootstrapOptions, WithInterval } from '../intervals/claim-cell-table.js';
import { bootstrapGroups } from '../intervals/group-bootstrap.js';
import type { AnnotationRow } from './annotation-row.js';
import { addCoincidences, addUnit, alphaFromCoincidences, type Coincidences, emptyCoincidences } from './krippendorff-alpha.js';

/** How much the annotators agree with each other; NaN values when no turn has two labels. */
export interface InterAnnotatorAgreement {
  readonly annotators: number;
  /** Turns labelled by two or more annotators: the only ones that tell about agreement. */
  readonly sharedTurns: number;
  /** Labels on shared turns (Krippendorff's n). */
  readonly pairableValues: number;
  /** Krippendorff's alpha for ordinal data (the scale is ordered, its steps not equal), with an interval over conversations; n = shared turns. */
  readonly alphaOrdinal: WithInterval & { readonly value: number; readonly n: number };
  /** The same treating the scale as interval (steps of one point). */
  readonly alphaInterval: number;
  /** The same treating the five labels as unordered. */
  readonly alphaNominal: number;
  /** Share of annotator pairs on a shared turn that gave the same label. */
  readonly pairwiseExactAgreement: number;
  /** Annotator pairs on shared turns. */
  readonly pairs: number;
}

/** Each turn's labels, grouped per conversation. */
function labelsPerTurn(conversation: readonly AnnotationRow[]): number[][] {
  const turns = new Map<number, number[]>();
  for (const row of conversation) {
    const labels = turns.get(row.turnIndex);
    if (labels) labels.push(row.score);
    else turns.set(row.turnIndex, [row.score]);
  }
  return [...turns.values()];
}

/**
 * Agreement among annotators over the turns several of them labelled. Krippendorff's alpha
 * handles missing labels (a turn one annotator skipped) by construction; the ordinal alpha's
 * interval resamples conversations (their coincidence matrices add up).
 */
export function annotatorAgreement(conversations: readonly (readonly AnnotationRow[])[], options: BootstrapOptions): InterAnnotatorAgreement {
  const matrices: Coincidences[] = [];
  const total = emptyCoincidences();
  let sharedTurns = 0;
  let pairs = 0;
  let agreeingPairs = 0;
  for (const conversation of conversations) {
    const matrix = emptyCoincidences();
    for (const labels of labelsPerTurn(conversation)) {
      if (labels.length < 2) continue;
      sharedTurns += 1;
      addUnit(matrix, labels);
      for (let first = 0; first < labels.length; first++) {
        for (let second = first + 1; second < labels.length; second++) {
          pairs += 1;
          if (labels[first] === labels[second]) agreeingPairs += 1;
        }
      }
    }
    matrices.push(matrix);
    addCoincidences(total, matrix);
  }
  const ordinal = alphaFromCoincidences(total, 'ordinal');
  const [interval] = bootstrapGroups(
    matrices.length,
    [
      (draw) => {
        const replicate = emptyCoincidences();
        for (const group of draw) addCoincidences(replicate, matrices[group]!);
        return alphaFromCoincidences(replicate, 'ordinal').alpha;
      },
    ],
    sharedTurns === 0 ? { ...options, replicates: 0 } : options,
  );
  return {
    annotators: new Set(conversations.flatMap((rows) => rows.map((row) => row.annotator))).size,
    sharedTurns,
    pairableValues: ordinal.pairableValues,
    alphaOrdinal: { value: ordinal.alpha, n: sharedTurns, ...interval! },
    alphaInterval: alphaFromCoincidences(total, 'interval').alpha,
    alphaNominal: alphaFromCoincidences(total, 'nominal').alpha,
    pairwiseExactAgreement: agreeingPairs / pairs,
    pairs,
  };
}

import type { Role } from '../../domain/roles.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import type { BootstrapOptions } from '../intervals/claim-cell-table.js';
import { bootstrapGroups } from '../intervals/group-bootstrap.js';
import { addCoincidences, addUnit, alphaFromCoincidences, type Coincidences, emptyCoincidences } from './krippendorff-alpha.js';

/** One turn as several judges labelled it: the unit of agreement. */
export interface JudgedUnit {
  /** The claim the turn's conversation is about: the unit of resampling. */
  readonly claimKey: string;
  readonly role: Role;
  /** One label set per judge that gave one (a judge that failed on the turn is missing). */
  readonly labels: readonly TurnLabels[];
}

/** A yes/no label of a turn whose agreement is measured. */
export interface AgreementLabel {
  /** `technique:ID`, `unethical:ID`, `refused` or `left-role` (the store's tags). */
  readonly label: string;
  readonly role: Role;
}

/** Krippendorff's alpha (nominal) of one label over the turns two or more judges labelled. */
export interface LabelAgreement extends AgreementLabel {
  /** NaN when no turn has two judges' labels, or the label never varies (every judge always says the same). */
  readonly alpha: number;
  /** 95% percentile bootstrap over claims. */
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Turns labelled by two or more judges, and the yes among their labels. */
  readonly turns: number;
  readonly yes: number;
  /** Share of judge pairs on a turn that said the same. */
  readonly pairwiseAgreement: number;
}

function holds(labels: TurnLabels, label: string): boolean {
  if (label === 'left-role') return labels.leftRole;
  if (labels.role !== 'persuader') return false;
  if (label === 'refused') return labels.refused;
  if (label.startsWith('technique:')) return labels.techniques.includes(label.slice('technique:'.length));
  if (label.startsWith('unethical:')) return labels.unethical.includes(label.slice('unethical:'.length));
  return false;
}

/**
 * Agreement between judges per label: each turn labelled by two or more judges is a unit whose
 * values are the judges' yes (2) or no (1) for the label; Krippendorff's alpha is nominal on those
 * binary values (missing judges are simply absent). The interval resamples claims: the coincidence
 * matrices of a claim's turns add up, as for the annotators' agreement.
 */
export function judgeLabelAgreement(units: Iterable<JudgedUnit>, labels: readonly AgreementLabel[], options: BootstrapOptions): LabelAgreement[] {
  const claimIndex = new Map<string, number>();
  const perLabel = labels.map(() => ({ matrices: [] as Coincidences[], turns: 0, yes: 0, pairs: 0, agreeing: 0 }));
  for (const unit of units) {
    if (unit.labels.length < 2) continue;
    let claim = claimIndex.get(unit.claimKey);
    if (claim === undefined) {
      claim = claimIndex.size;
      claimIndex.set(unit.claimKey, claim);
    }
    labels.forEach((label, index) => {
      if (label.role !== unit.role) return;
      const tally = perLabel[index]!;
      const values = unit.labels.map((judged) => (holds(judged, label.label) ? 2 : 1));
      const matrix = tally.matrices[claim!] ?? emptyCoincidences(2);
      tally.matrices[claim!] = matrix;
      addUnit(matrix, values);
      tally.turns += 1;
      tally.yes += values.filter((value) => value === 2).length;
      for (let first = 0; first < values.length; first++) {
        for (let second = first + 1; second < values.length; second++) {
          tally.pairs += 1;
          if (values[first] === values[second]) tally.agreeing += 1;
        }
      }
    });
  }
  const claims = claimIndex.size;
  return labels.map((label, index) => {
    const tally = perLabel[index]!;
    const matrices = Array.from({ length: claims }, (_, claim) => tally.matrices[claim] ?? emptyCoincidences(2));
    const total = emptyCoincidences(2);
    for (const matrix of matrices) addCoincidences(total, matrix);
    const { alpha } = alphaFromCoincidences(total, 'nominal');
    const [interval] = bootstrapGroups(
      claims,
      [
        (draw) => {
          const replicate = emptyCoincidences(2);
          for (const claim of draw) addCoincidences(replicate, matrices[claim]!);
          return alphaFromCoincidences(replicate, 'nominal').alpha;
        },
      ],
      tally.turns === 0 || Number.isNaN(alpha) ? { ...options, replicates: 0 } : options,
    );
    return {
      ...label,
      alpha,
      ciLow: interval!.ciLow,
      ciHigh: interval!.ciHigh,
      turns: tally.turns,
      yes: tally.yes,
      pairwiseAgreement: tally.pairs === 0 ? Number.NaN : tally.agreeing / tally.pairs,
    };
  });
}

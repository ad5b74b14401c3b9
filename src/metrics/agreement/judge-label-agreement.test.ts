import { describe, expect, it } from 'vitest';
import type { TurnLabels } from '../../domain/turn-labels.js';
import { type JudgedUnit, judgeLabelAgreement } from './judge-label-agreement.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';

describe('judgeLabelAgreement', () => {
  const persuader = (techniques: string[], refused = false): TurnLabels => ({ role: 'persuader', techniques, unethical: [], refused, leftRole: false });
  const units: JudgedUnit[] = [
    { claimKey: 'c1', role: 'persuader' as const, labels: [persuader(['logos']), persuader(['logos'])] },
    { claimKey: 'c1', role: 'persuader' as const, labels: [persuader([]), persuader(['logos'])] },
    { claimKey: 'c2', role: 'persuader' as const, labels: [persuader([]), persuader([])] },
    { claimKey: 'c2', role: 'persuader' as const, labels: [persuader(['logos']), persuader(['logos']), persuader([])] },
    { claimKey: 'c3', role: 'persuader' as const, labels: [persuader(['logos'])] },
    {
      claimKey: 'c3',
      role: 'persuadee' as const,
      labels: [
        { role: 'persuadee', leftRole: true },
        { role: 'persuadee', leftRole: true },
      ],
    },
  ];

  it("is Krippendorff's nominal alpha on each turn's yes (2) and no (1), over turns with two or more judges", () => {
    const [logos, refused, leftRole] = judgeLabelAgreement(
      units,
      [
        { label: 'technique:logos', role: 'persuader' },
        { label: 'refused', role: 'persuader' },
        { label: 'left-role', role: 'persuadee' },
      ],
      { replicates: 200, confidence: 0.95, seed: 1 },
    );
    const expected = krippendorffAlpha(
      [
        [2, 2],
        [1, 2],
        [1, 1],
        [2, 2, 1],
      ],
      'nominal',
      2,
    ).alpha;
    expect(logos).toMatchObject({ turns: 4, yes: 5 });
    expect(logos!.alpha).toBeCloseTo(expected, 12);
    expect(logos!.pairwiseAgreement).toBeCloseTo(3 / 6, 12);
    expect(logos!.ciLow).toBeLessThanOrEqual(logos!.ciHigh);
    // Nobody ever refused: agreement is undefined, not perfect.
    expect(refused!.alpha).toBeNaN();
    expect(refused!.pairwiseAgreement).toBe(1);
    expect(leftRole).toMatchObject({ turns: 1, yes: 2 });
  });
});

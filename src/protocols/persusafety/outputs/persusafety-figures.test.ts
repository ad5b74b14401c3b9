import { describe, expect, it } from 'vitest';
import { persusafetyRecord, persusafetyRun, persusafetyScores, storedPersusafetyRecord } from '../../../../test/support/persusafety-records.js';
import { DEFAULT_INTERVALS } from '../../../metrics/intervals/claim-estimates.js';
import type { ProtocolEstimateCell, ProtocolTable } from '../../../studies/protocol-outputs.js';
import type { StudyRun } from '../../../studies/run-config.js';
import type { PersusafetyProfile } from '../persusafety-facts.js';
import { persusafetyFigures } from './persusafety-figures.js';

/** Scenes 0-5 with an Anxious persuadee (Guilt Tripping scored 2 on scenes 0-2, 1 on scene 3) and scenes 0-3 with a Resilient one (none). */
function records() {
  const anxious = [0, 1, 2, 3, 4, 5].map((id) =>
    persusafetyRecord({
      scene: { ...persusafetyRecord().scene, id },
      finalDecision: id === 5 ? null : id % 2 === 0 ? 'ACCEPT' : 'REJECT',
      judgement: { ...persusafetyRecord().judgement, scores: persusafetyScores({ 'Guilt Tripping': id < 3 ? 2 : id === 3 ? 1 : 0 }) },
    }),
  );
  const resilient = [0, 1, 2, 3].map((id) =>
    persusafetyRecord({
      profile: 'Resilient' as PersusafetyProfile,
      scene: { ...persusafetyRecord().scene, id },
      finalDecision: 'REJECT',
      judgement: { ...persusafetyRecord().judgement, scores: persusafetyScores() },
    }),
  );
  return [...anxious, ...resilient].map(storedPersusafetyRecord);
}

const figures = persusafetyFigures(persusafetyRun('published'), records(), DEFAULT_INTERVALS);
const tableOf = (id: string): ProtocolTable => figures.tables.find((table) => table.id === id)!;
const estimate = (cell: unknown) => (cell as ProtocolEstimateCell).estimate;

describe("PersuSafety's report section", () => {
  it("says the judge is the paper's and that the figures are recomputed from its published scores", () => {
    expect(figures.title).toBe('PersuSafety: how ethically does a model persuade?');
    expect(figures.paragraphs[1]).toContain("The judge is the paper's: PersuSafety's published judge (Claude-3.5-Sonnet), published scores, imported");
    expect(figures.paragraphs[1]).toContain('1 results file imported), and every figure below is recomputed here from those published scores');
    expect(figures.paragraphs.join(' ')).toContain('1 conversation reached no decision (published as n-a)');
  });

  it('tables the 15 strategies clearly used per profile and over all profiles, with intervals over scenes', () => {
    const table = tableOf('clearly-used-by-profile');
    expect(table.header).toEqual(['persuader', 'study', 'condition', 'strategy', 'Resilient', 'Anxious', 'all profiles']);
    expect(table.rows).toHaveLength(15);
    const guilt = table.rows.find((row) => row[3] === 'Guilt Tripping')!;
    expect(guilt.slice(0, 3)).toEqual([{ model: 'model-a' }, 'ethical_personality', 'visible']);
    expect(estimate(guilt[4])).toBe(0);
    expect(guilt[5]).toMatchObject({ estimate: 3 / 6, n: 6 });
    // Over all profiles: 3 of 10 conversations, on 6 scenes (a scene's two profiles are one scene).
    expect(guilt[6]).toMatchObject({ estimate: 3 / 10, n: 6 });
    const ambiguous = tableOf('ambiguous-by-profile').rows.find((row) => row[3] === 'Guilt Tripping')!;
    expect(ambiguous[5]).toMatchObject({ estimate: 1 / 6, n: 6 });
  });

  it("tables the persuadee's decisions over the conversations that reached one, the undecided apart", () => {
    const rows = tableOf('decisions').rows;
    expect(rows.map((row) => row[3])).toEqual(['Resilient', 'Anxious', 'all profiles']);
    const anxious = rows[1]!;
    expect(anxious.slice(4, 6)).toEqual([6, 6]);
    expect(estimate(anxious[6])).toBeCloseTo(3 / 5, 12);
    expect(estimate(anxious[7])).toBeCloseTo(2 / 5, 12);
    expect(anxious[8]).toBe(1);
  });

  it("gives report.json every group's counts and shares, and says the scores were imported", () => {
    const json = figures.json as {
      judges: unknown;
      imported: unknown;
      intervals: unknown;
      conversations: number;
      scenes: number;
      groups: Array<{ profile: string; strategies: Array<{ strategy: string; clearlyUsed: Record<string, unknown> }> }>;
    };
    expect(json).toMatchObject({
      protocol: 'persusafety',
      run: 'published',
      judges: [{ judge: "PersuSafety's published judge (Claude-3.5-Sonnet)", published: true, conversations: 10 }],
      imported: { format: 'persusafety-published', files: 1, imports: 1 },
      intervals: { method: 't', confidence: 0.95, unit: 'scene', replicates: null, seed: null },
      conversations: 10,
      scenes: 6,
      undecided: 1,
    });
    const anxious = json.groups.find((group) => group.profile === 'Anxious')!;
    expect(anxious.strategies.find((entry) => entry.strategy === 'Guilt Tripping')!.clearlyUsed).toMatchObject({
      share: 0.5,
      count: 3,
      conversations: 6,
      scenes: 6,
    });
  });

  it('shows a profile a group lacks as n/a, and refuses a run that is not a protocol run', () => {
    const onlyAnxious = persusafetyFigures(persusafetyRun('published'), records().slice(0, 6), DEFAULT_INTERVALS);
    expect(onlyAnxious.tables[0]!.header).toEqual(['persuader', 'study', 'condition', 'strategy', 'Anxious', 'all profiles']);
    const other = persusafetyFigures(
      persusafetyRun('two'),
      [...records().slice(0, 6), storedPersusafetyRecord(persusafetyRecord({ persuader: 'model-b', profile: 'Resilient' }))],
      DEFAULT_INTERVALS,
    );
    const modelA = other.tables[0]!.rows.find((row) => (row[0] as { model: string }).model === 'model-a')!;
    expect(estimate(modelA[4])).toBeNaN();
    const tournament = { ...persusafetyRun('tour'), config: { kind: 'import' } } as unknown as StudyRun;
    expect(() => persusafetyFigures(tournament, [], DEFAULT_INTERVALS)).toThrow('run tour is not a PersuSafety run');
  });
});

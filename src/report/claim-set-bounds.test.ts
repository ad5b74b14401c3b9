import { describe, expect, it } from 'vitest';
import { reportRun, storedTournamentDesign } from '../../test/support/report-fixture.js';
import { claimSetBounds } from './claim-set-bounds.js';

const run = (config: unknown) => reportRun('r', config);
const pmiycRun = (claims: Record<string, unknown>) => run({ command: 'run', design: storedTournamentDesign({ claims }) });

describe('claimSetBounds', () => {
  it("is the paper's set when every claim comes from it, whatever part of it the run argued", () => {
    const bounds = claimSetBounds(
      [
        { domain: 'subjective', origin: 'anthropic', claims: 20 },
        { domain: 'subjective', origin: 'perspectrum', claims: 30 },
        { domain: 'misinformation', origin: 'truthfulqa', claims: 6 },
      ],
      [pmiycRun({ source: 'subjective', sample: 50 }), run({ command: 'import', labelMatch: 'strict' })],
    );
    expect(bounds.get('subjective')).toEqual({ claims: 961, source: "the paper's subjective set" });
    expect(bounds.get('misinformation')).toEqual({ claims: 817, source: "the paper's misinformation set" });
  });

  it('is every claim argued when each run argued its whole set, and unknown otherwise', () => {
    const examples = [{ domain: 'subjective', origin: 'examples', claims: 12 }] as const;
    expect(claimSetBounds(examples, [pmiycRun({ source: 'examples' })]).get('subjective')).toEqual({ claims: 12, source: 'every claim the run argued' });
    expect(claimSetBounds(examples, [pmiycRun({ source: '/data/mine.csv', limit: 12 })]).get('subjective')).toBeNull();
    expect(claimSetBounds(examples, [run(undefined)]).get('subjective')).toBeNull();
    const imported = [
      { domain: 'subjective', origin: 'anthropic', claims: 50 },
      { domain: 'subjective', origin: 'imported', claims: 3 },
    ] as const;
    expect(claimSetBounds(imported, [run({ command: 'import', labelMatch: 'strict', imports: [] })]).get('subjective')).toBeNull();
  });
});

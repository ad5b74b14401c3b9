import { describe, expect, it } from 'vitest';
import type { ConsistencyEstimate } from '../../metrics/consistency/consistency.js';
import { type ConsistencyModelRow, type ConsistencyStudyReport, MATCH_RATE_TIE_RULE } from './consistency-figures.js';
import { consistencySectionHtml, consistencySectionMarkdown, consistencyTable } from './consistency-section.js';
import { formatConsistencyText } from './consistency-text.js';

const estimate = (value: number, n: number): ConsistencyEstimate => ({ value, ciLow: value - 0.1, ciHigh: value + 0.1, n });
const HOSTILE = '<img src=x onerror=alert(1)>';

const row = (model: string, simulated: boolean, compared: boolean): ConsistencyModelRow => ({
  model,
  domain: 'subjective',
  claims: 10,
  claimsWithoutAnswer: 1,
  samples: 50,
  usableSamples: 45,
  unusableReplies: 7,
  meanSd: estimate(0.44, 9),
  paperAvgSd: estimate(0.49, 9),
  simulated,
  openingAgreement: compared
    ? {
        openings: 9,
        matchRatePercent: estimate(16.23, 9),
        matchRateAllOpeningsPercent: estimate(14.61, 10),
        matchRateAnyTiedModePercent: 22.22,
        tiedModes: 1,
        avgDif: estimate(1.13, 9),
        openingsWithoutAnswers: 1,
      }
    : null,
});

const study = (compared: boolean, models = [row('sim/stubborn', true, compared), row(HOSTILE, false, compared)]): ConsistencyStudyReport => ({
  study: `study ${HOSTILE}`,
  createdAt: '2026-01-01T00:00:00Z',
  status: 'completed',
  seed: 0,
  kind: 'sampled',
  samplesPerClaim: 5,
  claimSource: 'examples',
  temperature: 0.7,
  maxAttempts: 3,
  importedFile: null,
  tournamentRun: compared ? 'paper' : null,
  tieRule: MATCH_RATE_TIE_RULE,
  bootstrap: { replicates: 2000, confidence: 0.95, seed: 0, unit: 'claim', method: 'percentile' },
  models,
  notes: [`note about ${HOSTILE}`],
});

describe('the consistency section', () => {
  it('shows Match Rate both ways (usable answers; all openings, as the paper) and Avg Dif only when a tournament run is linked', () => {
    expect(consistencyTable(study(false)).header.join(' ')).not.toContain('Match Rate');
    const table = consistencyTable(study(true));
    expect(table.header).toEqual(
      expect.arrayContaining([
        'mean SD (n = claims)',
        'Avg SD as in the paper (mean variance; n = claims)',
        'Match Rate % (usable answers; n = openings)',
        'Match Rate % (paper: all openings; n = openings)',
        'Avg Dif (n = openings)',
      ]),
    );
    expect(table.rows[0]).toHaveLength(table.header.length);
    const column = table.header.indexOf('Match Rate % (paper: all openings; n = openings)');
    expect(table.rows[0]![column]).toMatchObject({ estimate: 14.61, n: 10 });
  });

  it('escapes every model name, study name and note in HTML, and badges simulated agents', () => {
    const text = consistencySectionHtml([study(true)]).value;
    expect(text).not.toContain('<img');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toMatch(/sim\/stubborn<span class="badge sim"/);
    expect(text).toContain('id="consistency"');
    expect(text).toContain('0.49');
    expect(text).toContain('16.23');
    expect(text).toContain(MATCH_RATE_TIE_RULE);
  });

  it('escapes the same in Markdown, and labels simulated agents', () => {
    const text = consistencySectionMarkdown([study(true)]);
    expect(text).not.toContain('<img');
    expect(text).toContain('sim/stubborn \\[simulated\\]');
    expect(text).toMatch(/^## Do models hold consistent opinions\? \(paper Table 1\)/);
  });

  it('is empty when there is no study', () => {
    expect(consistencySectionHtml([]).value).toBe('');
    expect(consistencySectionMarkdown([])).toBe('');
  });

  it('prints a text table per domain with the paper-compatible value labelled as a variance', () => {
    const text = formatConsistencyText(study(true));
    expect(text).toContain('subjective claims');
    expect(text).toContain('Avg SD (paper) = mean variance');
    expect(text).toContain('sim/stubborn [simulated]');
    expect(text).toContain('9 (+1 unanswered)');
    expect(text).toContain('16.23 [16.13, 16.33]');
  });
});

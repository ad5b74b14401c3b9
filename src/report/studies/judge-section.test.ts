import { describe, expect, it } from 'vitest';
import { reportJson } from '../build-report-document.js';
import { renderCharts } from '../charts/render-svg.js';
import { createModelLabels } from '../model-labels.js';
import type { ReportDocument } from '../report-document.js';
import { judgeAccuracyChart } from './judge-chart.js';
import { buildJudgeSection, type JudgeSectionTrial, judgeSectionHtml, judgeSectionMarkdown } from './judge-section.js';
import { formatJudgeText } from './judge-text.js';

const HOSTILE = '<script>alert(1)</script>';
const trial = (model: string, pairId: string, claim: string, scoreDifference: number, chosen: 1 | 2 | null, correct: boolean | null): JudgeSectionTrial => ({
  model,
  pairId,
  claim,
  scoreDifference,
  chosen,
  correct,
});
const trials = [
  trial('sim/oracle', 'p1', 'A', 2, 1, true),
  trial('sim/oracle', 'p2', 'A', 0.5, 2, true),
  trial('sim/oracle', 'p3', 'B', 1, 1, true),
  trial('sim/oracle', 'p4', 'B', 1.5, 2, true),
  trial(HOSTILE, 'p1', 'A', 2, 1, false),
  trial(HOSTILE, 'p2', 'A', 0.5, null, null),
  trial(HOSTILE, 'p3', 'B', 1, 1, false),
  trial(HOSTILE, 'p4', 'B', 1.5, 1, false),
];
const section = buildJudgeSection(trials, {
  runs: ['judge-1'],
  sources: [{ run: 'judge-1', source: 'my <pairs>.jsonl', license: 'unknown (user file)' }],
  bootstrap: { replicates: 200, confidence: 0.95, seed: 1 },
});
const labels = createModelLabels(section.judges.map((judge) => ({ model: judge.model, simulated: false })));

describe('the judge section of the report', () => {
  it('counts pairs, large differences and claims, and has each judge with its estimates', () => {
    expect(section.pairs).toEqual({ total: 4, largeDifference: 2, claims: 2 });
    expect(section.judges.map((judge) => [judge.model, judge.overall.value, judge.overall.n, judge.overall.unusable, judge.largeDifference.value])).toEqual([
      [HOSTILE, 0, 3, 1, 0],
      ['sim/oracle', 1, 4, 0, 1],
    ]);
    expect(section.bootstrap).toEqual({ replicates: 200, confidence: 0.95, seed: 1, unit: 'claim', method: 'percentile' });
    // report.json: no data is null, never NaN.
    const json = JSON.parse(
      reportJson({
        meta: { runs: [] },
        claims: { spread: [], perClaim: [], pairs: [] },
        studies: { judge: buildJudgeSection([], { runs: [], sources: [], bootstrap: section.bootstrap }) },
      } as unknown as ReportDocument),
    );
    expect(json.studies.judge.pairs.total).toBe(0);
  });

  it('escapes model names and sources in HTML and Markdown, and labels simulated judges', () => {
    const page = judgeSectionHtml(section, labels, undefined).value;
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;');
    expect(page).toContain('my &lt;pairs&gt;.jsonl');
    expect(page).toContain('simulated');
    expect(page).toContain('id="judge"');
    const markdown = judgeSectionMarkdown(section, labels, () => '');
    expect(markdown).not.toContain('<script>');
    expect(markdown).toContain('| sim/oracle \\[simulated\\] | 1.00 [1.00, 1.00] (n = 4) |');
  });

  it('renders its chart to SVG with the judges on it', async () => {
    const [chart] = await renderCharts([judgeAccuracyChart(section, labels)]);
    expect(chart!.id).toBe('judge-accuracy');
    expect(chart!.svg).toMatch(/^<svg/);
    expect(chart!.svg).toContain('sim/oracle');
    expect(chart!.svg).not.toContain('<script>');
  });

  it('prints a terminal table in percent', () => {
    const text = formatJudgeText({ judges: section.judges, threshold: 1, bootstrap: section.bootstrap }, labels.text);
    expect(text).toMatch(/^sim\/oracle \[simulated\] +100\.0% \[100\.0%, 100\.0%\] \(n = 4\) +100\.0% \[100\.0%, 100\.0%\] \(n = 2\) +0 +50\.0% /m);
    expect(text).toContain('chance is 50%');
  });
});

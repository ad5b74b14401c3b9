import { describe, expect, it } from 'vitest';
import { HOSTILE } from '../../../test/support/hostile-records.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { type AnnotationRow, analyzeReliability } from '../../metrics/agreement/annotation-agreement.js';
import { renderCharts } from '../charts/render-svg.js';
import { createModelLabels } from '../model-labels.js';
import { annotationChartSpecs, annotationSectionHtml, annotationSectionMarkdown, CONFUSION_CHART_ID, RELIABILITY_SECTION_ID } from './annotation-section.js';

const EVIL = `sim/evil${HOSTILE.image}`;
const row = (
  conversationId: string,
  turnIndex: number,
  annotator: string,
  modelScore: number,
  score: number,
  persuadee = 'openai/gpt-4o-mini',
): AnnotationRow => ({
  conversationId,
  turnIndex,
  annotator,
  score: score as AgreementScore,
  modelScore: modelScore as AgreementScore,
  persuadee,
  domain: 'subjective',
});
const ROWS = [
  row('c1', 1, 'alice', 2, 2),
  row('c1', 1, 'bob', 2, 3),
  row('c1', 3, 'alice', 4, 4),
  row('c1', 3, 'bob', 4, 4),
  row('c2', 1, 'alice', 1, 2, EVIL),
  row('c2', 3, 'alice', 5, 5, EVIL),
  row('c2', 3, 'bob', 5, 4, EVIL),
];
const STUDY = analyzeReliability(ROWS, { replicates: 200, confidence: 0.95, seed: 1 });
const LABELS = createModelLabels([{ model: EVIL, simulated: true }]);

describe('the self-report reliability section', () => {
  it('is absent when the run has no labels', () => {
    expect(annotationSectionHtml(null, LABELS, undefined).value).toBe('');
    expect(annotationSectionHtml(analyzeReliability([], { replicates: 10, confidence: 0.95, seed: 0 }), LABELS, undefined).value).toBe('');
    expect(annotationSectionMarkdown(undefined, LABELS, () => '')).toBe('');
    expect(annotationChartSpecs(null)).toEqual([]);
  });

  it('shows the headline numbers, the confusion matrix and the breakdowns in HTML, model names escaped', () => {
    const section = annotationSectionHtml(STUDY, LABELS, { id: CONFUSION_CHART_ID, title: 'chart', svg: '<svg id="confusion"></svg>' }).value;
    expect(section).toContain(`<section class="block" id="${RELIABILITY_SECTION_ID}">`);
    expect(section).toContain('paper Sec. 5.2, Fig. 8');
    expect(section).toContain('7 labels by 2 annotators on 4 turns of 2 conversations: 57% equal');
    expect(section).toContain('<svg id="confusion"></svg>');
    expect(section).toMatch(/Krippendorff\u2019s alpha, ordinal/);
    expect(section).toContain('alice');
    expect(section).not.toContain(HOSTILE.image);
    expect(section).toContain('sim/evil&lt;img src=x onerror=alert(1)&gt;');
    expect(section).toContain('<span class="badge sim"');
  });

  it('writes the same in Markdown with the chart as an image, escaped', () => {
    const markdown = annotationSectionMarkdown(STUDY, LABELS, (id) => `![confusion](charts/${id}.svg)`);
    expect(markdown).toMatch(/^## Self-report reliability \(paper Sec\. 5\.2, Fig\. 8\)/);
    expect(markdown).toContain(`![confusion](charts/${CONFUSION_CHART_ID}.svg)`);
    expect(markdown).toContain('| 2 Oppose | 0 | 1 | 1 | 0 | 0 | 2 |');
    expect(markdown).not.toContain('<img');
  });

  it('renders the confusion matrix to SVG with every count', async () => {
    const [chart] = await renderCharts(annotationChartSpecs(STUDY));
    expect(chart!.id).toBe(CONFUSION_CHART_ID);
    expect(chart!.svg).toMatch(/^<svg/);
    expect(chart!.svg).toContain('Model self-report');
    expect(chart!.svg).toContain('5 Completely Support');
    expect(chart!.svg).toContain('50% of row');
  });
});

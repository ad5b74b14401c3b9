import type { Config } from 'vega-lite';
import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';

/** A chart of the report: a Vega-Lite spec with the name its SVG file gets. */
export interface ChartSpec {
  /** File-safe id, e.g. "nc-matrix-subjective-multi"; the SVG is charts/<id>.svg. */
  readonly id: string;
  /** Alternative text and figure caption. */
  readonly title: string;
  readonly spec: Record<string, unknown>;
}

const FONT = 'Helvetica Neue, Helvetica, Arial, sans-serif';
export const INK = '#1f2430';
const MUTED = '#5b6170';

/** Shared look: quiet axes, readable labels, titles anchored left. */
export const CHART_CONFIG: Config = {
  font: FONT,
  background: 'white',
  padding: 12,
  view: { stroke: null },
  axis: {
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: 600,
    labelColor: MUTED,
    titleColor: INK,
    gridColor: '#e6e8ee',
    domainColor: '#b8bcc8',
    tickColor: '#b8bcc8',
    labelLimit: 260,
  },
  legend: { labelFontSize: 11, titleFontSize: 12, titleColor: INK, labelColor: MUTED, symbolType: 'square' },
  title: { fontSize: 15, fontWeight: 600, anchor: 'start', color: INK, subtitleFontSize: 12, subtitleColor: MUTED, offset: 14 },
};

/** "subjective · multi-turn" */
export function conditionLabel(domain: Domain, setting: Setting): string {
  return `${domain} · ${setting}-turn`;
}

/** The four conditions in the paper's order, each with its colour (blues subjective, oranges misinformation). */
const CONDITIONS: ReadonlyArray<{ domain: Domain; setting: Setting; color: string }> = [
  { domain: 'subjective', setting: 'single', color: '#9ecae1' },
  { domain: 'subjective', setting: 'multi', color: '#2b6cb0' },
  { domain: 'misinformation', setting: 'single', color: '#f6ad72' },
  { domain: 'misinformation', setting: 'multi', color: '#c2410c' },
];

/** Colour scale of the conditions present, in the paper's order. */
export function conditionScale(present: ReadonlyArray<{ domain: Domain; setting: Setting }>) {
  const used = CONDITIONS.filter((condition) => present.some((entry) => entry.domain === condition.domain && entry.setting === condition.setting));
  return { domain: used.map((condition) => conditionLabel(condition.domain, condition.setting)), range: used.map((condition) => condition.color) };
}

/** Axis labels on two lines when a model is simulated: "sim/weak" over "[simulated]". */
export const MULTILINE_LABELS = "split(datum.label, '\\n')";

/** The colours of the five agreement scores, Completely Oppose (red) to Completely Support (blue). */
export const SCORE_COLORS = ['#b2182b', '#ef8a62', '#cfd3da', '#67a9cf', '#2166ac'];

import type { ChartSpec } from '../charts/chart-theme.js';
import { estimateScatterChart } from '../charts/estimate-scatter-chart.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportProtocolSection } from '../report-document.js';
import { protocolChartIds } from './protocol-section-html.js';

/**
 * The charts of the protocol sections (`ProtocolFigures.charts`), each named by its section's anchor and its own
 * id (`llm-persuasion-benchmark-lpb-offense-defense`), so two runs' charts never share a file.
 */

/** Every protocol section's chart as a spec the report renders. */
export function protocolChartSpecs(sections: readonly ReportProtocolSection[], labels: ModelLabels): ChartSpec[] {
  const ids = protocolChartIds(sections);
  return sections.flatMap((section, position) =>
    (section.figures.charts ?? []).map((chart) => estimateScatterChart(ids[position]!.get(chart.id)!, chart, labels)),
  );
}

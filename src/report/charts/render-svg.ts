import type { ChartSpec } from './chart-theme.js';

/** A chart rendered to standalone SVG markup. */
export interface RenderedChart {
  readonly id: string;
  readonly title: string;
  readonly svg: string;
}

/**
 * Renders Vega-Lite specs to SVG in Node, without a browser or canvas: Vega-Lite compiles to
 * Vega, and a headless Vega view writes SVG (text is measured by estimate, which is enough for
 * labels). Vega escapes every text it writes, so data strings cannot become markup. Loaded
 * lazily: only the report pays for Vega's start-up.
 */
export async function renderCharts(charts: readonly ChartSpec[]): Promise<RenderedChart[]> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const rendered: RenderedChart[] = [];
  for (const chart of charts) {
    const compiled = vegaLite.compile(chart.spec as unknown as Parameters<typeof vegaLite.compile>[0]).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
    try {
      rendered.push({ id: chart.id, title: chart.title, svg: await view.toSVG() });
    } finally {
      view.finalize();
    }
  }
  return rendered;
}

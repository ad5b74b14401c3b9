import { isPersonAgent } from '../../domain/person-agent.js';
import { formatCount } from '../../domain/text-labels.js';
import { noDataText } from '../../metrics/role-coverage.js';
import type { RenderedChart } from '../charts/render-svg.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import type { ReportTable, TableCell } from '../tables/report-tables.js';
import { html, type SafeHtml, trusted } from './safe-html.js';

/** A model name with a visible "simulated" badge for simulated agents; a person named as a person. */
export function modelName(model: string, labels: ModelLabels): SafeHtml {
  if (labels.isSimulated(model)) return html`${model}<span class="badge sim" title="simulated agent, not a real model">simulated</span>`;
  // A person of a people study is named as the labels name them ("people (every participant)", "person/p-1 [person]").
  return isPersonAgent(model) ? html`${labels.text(model)}` : html`${model}`;
}

/** The ~ before an interval that rests on too few claims (or too few that differ) to be trusted. */
export function thinMarkHtml(thin: boolean): SafeHtml | '' {
  return thin ? html`<span class="thin" title="too few claims, or too few that differ, to trust this interval">~</span>` : '';
}

/**
 * "0.42 [0.31, 0.55] n = 36", "0.42 ~[0.31, 0.55]" when too few claims back the interval, or "n/a"
 * when there is no data. What n counts is said by the table's header, or by `nCounts` ("n = 36 conversations").
 */
export function estimateHtml(estimate: number, ciLow: number, ciHigh: number, n: number, thin = false, nCounts = ''): SafeHtml {
  const count = html`<span class="n">n = ${n}${nCounts ? ` ${nCounts}` : ''}</span>`;
  if (!Number.isFinite(estimate)) return html`<span class="na">n/a</span>${count}`;
  const mark = thinMarkHtml(thin);
  const interval = Number.isFinite(ciLow) ? html` ${mark}<span class="ci">[${formatNumber(ciLow)}, ${formatNumber(ciHigh)}]</span>` : mark;
  return html`<span class="est">${formatNumber(estimate)}</span>${interval}${count}`;
}

/** "no data (12 of 12 failed: format) n = 0": a value that is missing, and why. */
function noDataHtml(reason: string, n: number): SafeHtml {
  return html`<span class="na no-data">${noDataText(reason)}</span><span class="n">n = ${n}</span>`;
}

function cellHtml(cell: TableCell, labels: ModelLabels): { content: SafeHtml; numeric: boolean } {
  if (typeof cell === 'string') return { content: html`${cell}`, numeric: false };
  if (typeof cell === 'number') return { content: html`${formatCount(cell)}`, numeric: true };
  if ('model' in cell) return { content: modelName(cell.model, labels), numeric: false };
  if (cell.reason !== undefined) return { content: noDataHtml(cell.reason, cell.n), numeric: true };
  return { content: estimateHtml(cell.estimate, cell.ciLow, cell.ciHigh, cell.n, cell.thin), numeric: true };
}

/** A data table; numeric cells are right-aligned. */
export function tableHtml(table: ReportTable, labels: ModelLabels): SafeHtml {
  const rows = table.rows.map((row) => {
    const cells = row.map((cell) => {
      const { content, numeric } = cellHtml(cell, labels);
      return numeric ? html`<td class="number">${content}</td>` : html`<td>${content}</td>`;
    });
    return html`<tr>${cells}</tr>`;
  });
  if (table.rows.length === 0) return html`<p class="na">No data.</p>`;
  const numeric = table.header.map((_, column) => table.rows.every((row) => row[column] === undefined || cellHtml(row[column]!, labels).numeric));
  const header = table.header.map((title, column) => {
    const content = typeof title === 'string' ? html`${title}` : modelName(title.model, labels);
    return numeric[column] ? html`<th scope="col" class="number">${content}</th>` : html`<th scope="col">${content}</th>`;
  });
  return html`<div class="table-wrap"><table class="data"><thead><tr>${header}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** An inline SVG chart. Vega escapes every text it writes; the SVG is otherwise our own spec's output. */
export function figureHtml(chart: RenderedChart | undefined): SafeHtml {
  if (!chart) return html``;
  return html`<figure class="chart" id="${`figure-${chart.id}`}" role="group" aria-label="${chart.title}">${trusted(chart.svg)}</figure>`;
}

/** A section of the report with its heading, paper reference and introduction. */
export function sectionHtml(id: string, title: string, paperReference: string, intro: SafeHtml | string, body: readonly SafeHtml[]): SafeHtml {
  const content = body.some((part) => part.value.trim() !== '') ? body : [html`<p class="na">No data.</p>`];
  return html`<section class="block" id="${id}"><h2>${title}${paperReference ? html`<span class="paper-ref">${paperReference}</span>` : ''}</h2><p class="intro">${intro}</p>${content}</section>`;
}

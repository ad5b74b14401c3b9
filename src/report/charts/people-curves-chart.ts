import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { Role } from '../../domain/roles.js';
import type { PeopleComparison } from '../../metrics/people/people-comparison.js';
import type { ModelLabels } from '../model-labels.js';
import { CHART_CONFIG, type ChartSpec, conditionLabel } from './chart-theme.js';

/** The chart's id for one condition and role. */
export const peopleChartId = (domain: Domain, setting: Setting, role: Role) => `people-${domain}-${setting}-${role}`;

/**
 * The persuadee's mean agreement at each persuadee turn, people against each model compared with
 * them, with 95% intervals over claims. People's line is drawn once when every model shares the same
 * claims with them (the same values), else once per model ("people, on alpha's claims").
 */
export function peopleCurvesChart(rows: readonly PeopleComparison[], labels: ModelLabels): ChartSpec {
  const first = rows[0]!;
  const peopleLines = new Map<string, string>();
  for (const row of rows) {
    const key = JSON.stringify(row.curve.map((point) => [point.turn, point.people.value]));
    if (!peopleLines.has(key)) peopleLines.set(key, row.model);
  }
  const values = rows.flatMap((row) => {
    const key = JSON.stringify(row.curve.map((point) => [point.turn, point.people.value]));
    const drawPeople = peopleLines.get(key) === row.model;
    const peopleName = peopleLines.size === 1 ? 'people' : `people, on ${labels.text(row.model)}'s claims`;
    return row.curve.flatMap((point) => [
      ...(drawPeople ? [{ series: peopleName, turn: point.turn, mean: point.people.value, ciLow: point.people.ciLow, ciHigh: point.people.ciHigh }] : []),
      { series: labels.text(row.model), turn: point.turn, mean: point.model.value, ciLow: point.model.ciLow, ciHigh: point.model.ciHigh },
    ]);
  });
  const finite = values.filter((value) => Number.isFinite(value.mean));
  const turns = [...new Set(finite.map((value) => value.turn))].sort((a, b) => a - b);
  const who = first.role === 'persuadee' ? 'persuadee' : "persuaded model's";
  return {
    id: peopleChartId(first.domain, first.setting, first.role),
    title: `People and models as ${first.role}s: mean ${who} agreement at each turn, ${conditionLabel(first.domain, first.setting)}`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: `People and models as ${first.role}s: ${conditionLabel(first.domain, first.setting)}`,
        subtitle: `Mean ${who} agreement at each persuadee turn on the claims both have, with 95% intervals over claims.`,
      },
      data: {
        values: finite.map((value) => ({
          ...value,
          ciLow: Number.isFinite(value.ciLow) ? value.ciLow : value.mean,
          ciHigh: Number.isFinite(value.ciHigh) ? value.ciHigh : value.mean,
        })),
      },
      width: Math.max(320, 90 * turns.length),
      height: 240,
      encoding: {
        x: { field: 'turn', type: 'ordinal', sort: turns, title: 'Persuadee turn', axis: { labelAngle: 0 } },
        color: { field: 'series', type: 'nominal', title: null, scale: { scheme: 'tableau10' }, legend: { orient: 'right', labelLimit: 260 } },
      },
      layer: [
        { mark: { type: 'rule', strokeWidth: 1.4, opacity: 0.6 }, encoding: { y: { field: 'ciLow', type: 'quantitative' }, y2: { field: 'ciHigh' } } },
        {
          mark: { type: 'line', strokeWidth: 2.2, point: { filled: true, size: 46 } },
          encoding: { y: { field: 'mean', type: 'quantitative', title: 'Mean agreement (1-5)', scale: { domain: [1, 5] }, axis: { values: [1, 2, 3, 4, 5] } } },
        },
      ],
    },
  };
}

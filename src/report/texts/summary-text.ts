import type { Role } from '../../domain/roles.js';
import { THIN_LIMITS } from '../../metrics/intervals/claim-estimates.js';
import { noDataReason, noDataText } from '../../metrics/role-coverage.js';
import type { GroupSummary } from '../../metrics/tournament-summary.js';
import { formatEstimate } from '../number-format.js';
import { formatTextTable } from './text-table.js';

/** How a model is shown: simulated agents always carry a label. */
export type ModelLabel = (model: string) => string;

type ModelEstimate = { model: string; value: number; ciLow: number; ciHigh: number; thin: boolean };

/**
 * One role's table: a row per model of any condition, its estimate, or "no data" and why where
 * it has no scored conversation in that role there (`noDataReason`), or n/a where it never took part.
 */
function modelTable(groups: readonly GroupSummary[], role: Role, pick: (group: GroupSummary) => readonly ModelEstimate[], labelOf: ModelLabel): string {
  const inRole = (group: GroupSummary) => group.coverage.filter((entry) => entry.role === role);
  const models = [...new Set(groups.flatMap((group) => [...pick(group).map((entry) => entry.model), ...inRole(group).map((entry) => entry.model)]))];
  const header = ['model', ...groups.map((group) => `${group.domain} ${group.setting}`)];
  const rows = models.map((model) => [
    labelOf(model),
    ...groups.map((group) => {
      const entry = pick(group).find((candidate) => candidate.model === model);
      if (entry) return formatEstimate(entry.value, entry.ciLow, entry.ciHigh, entry.thin);
      const coverage = inRole(group).find((candidate) => candidate.model === model);
      const reason = coverage ? noDataReason(coverage) : null;
      return reason === null ? 'n/a' : noDataText(reason);
    }),
  ]);
  return formatTextTable(header, rows);
}

/**
 * The demo's and the run's closing summary: effectiveness and susceptibility per model, one
 * column per domain and setting, each with its interval over claims (~ before an interval that
 * rests on too few claims, as in the report), then the counts.
 */
export function formatSummaryText(groups: readonly GroupSummary[], labelOf: ModelLabel): string {
  if (groups.length === 0) return 'No conversations to summarise.';
  const confidence = Math.round((groups[0]!.estimates.options.confidence ?? 0.95) * 100);
  const counts = groups.map(
    (group) => `${group.domain} ${group.setting}: ${group.completed} completed, ${group.failed} failed, ${group.estimates.claims} claims`,
  );
  const thin = groups.some((group) => [...group.estimates.effectiveness, ...group.estimates.susceptibility].some((entry) => entry.thin));
  const thinNote = thin
    ? [
        `~ marks an interval on fewer than ${THIN_LIMITS.claims} claims, or fewer than ${THIN_LIMITS.varyingClaims} that differ: too few to trust it (docs/design/statistics.md).`,
      ]
    : [];
  return [
    `Effectiveness: mean normalized change as persuader [${confidence}% interval over claims]`,
    modelTable(groups, 'persuader', (group) => group.estimates.effectiveness, labelOf),
    '',
    `Susceptibility: mean normalized change as persuadee [${confidence}% interval over claims]`,
    modelTable(groups, 'persuadee', (group) => group.estimates.susceptibility, labelOf),
    '',
    ...thinNote,
    ...counts,
  ].join('\n');
}

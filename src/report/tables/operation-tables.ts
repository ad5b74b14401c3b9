import { formatCount as count } from '../../domain/text-labels.js';
import { formatTimestamp } from '../number-format.js';
import type { ReportDocument, ReportMeta } from '../report-document.js';
import { runSeedText } from '../sections/imported-notes.js';
import type { ReportTable } from './report-tables.js';

const percent = (rate: number) => (Number.isFinite(rate) ? `${(rate * 100).toFixed(1)}%` : 'n/a');
const byModelAndRole = <T extends { model: string; role: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.model.localeCompare(b.model) || a.role.localeCompare(b.role));

/** Appendix B.0.1: conversations per model and role, completed, and who failed why. */
export function successTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'role', 'conversations', 'completed', 'success rate', 'format', 'refusal', 'api', 'context', 'partner failed'],
    rows: byModelAndRole(document.successRates).map((entry) => [
      { model: entry.model },
      entry.role,
      entry.attempted,
      entry.completed,
      percent(entry.rate),
      entry.reasons.format,
      entry.reasons.refusal,
      entry.reasons.api,
      entry.reasons.context,
      entry.failedByPartner,
    ]),
  };
}

/** Re-samples of unusable replies per model and role, by why the reply was rejected. */
export function resamplingTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'role', 'turns', 'calls', 're-samples', 'rejected: format', 'refusal', 'api', 'context'],
    rows: byModelAndRole(document.resampling).map((entry) => [
      { model: entry.model },
      entry.role,
      entry.turns,
      entry.attempts,
      `${count(entry.resamples)} (${percent(entry.turns === 0 ? Number.NaN : entry.resamples / entry.turns)})`,
      entry.rejected.format,
      entry.rejected.refusal,
      entry.rejected.api,
      entry.rejected.context,
    ]),
  };
}

function tokens(value: number, withoutUsage: number, calls: number): string {
  if (withoutUsage === calls) return 'not reported';
  return withoutUsage > 0 ? `${count(value)} (${withoutUsage} calls unreported)` : count(value);
}

/** What the usage table counts, said above it: not what a session paid (the closing lines and `pmiyc runs` say that). */
export const USAGE_INTRO =
  "Per model and role, over the calls the report's conversations rest on (finished ones, completed or failed), each call once however many conversations share it, at the cost it had when it was made: calls replayed from earlier runs are included. What each run paid is in pmiyc runs and a session's closing lines.";

/** Tokens and cost per model and role, shared calls counted once. */
export function usageTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'role', 'calls', 'input tokens', 'output tokens', 'cost (USD)'],
    rows: byModelAndRole(document.usage).map((entry) => [
      { model: entry.model },
      entry.role,
      entry.calls,
      `${tokens(entry.inputTokens, entry.callsWithoutUsage, entry.calls)}${entry.cachedInputTokens > 0 ? `; ${count(entry.cachedInputTokens)} cached` : ''}`,
      tokens(entry.outputTokens, entry.callsWithoutUsage, entry.calls),
      entry.costUsd === undefined
        ? entry.callsWithoutCost === entry.calls
          ? 'no price set'
          : 'unknown'
        : `$${entry.costUsd.toFixed(4)}${entry.callsWithoutCost > 0 ? ` + ${entry.callsWithoutCost} calls unpriced` : ''}`,
    ]),
  };
}

/** The runs combined in the report; an imported run has no seed. */
export function runsTable(document: { readonly meta: Pick<ReportMeta, 'runs'> }): ReportTable {
  return {
    header: ['run', 'started', 'seed', 'pmiyc version', 'status'],
    rows: document.meta.runs.map((run) => [run.name, formatTimestamp(run.createdAt), run.seed ?? runSeedText(run), run.packageVersion, run.status ?? 'n/a']),
  };
}

/** Claim sets with their origins and licences; non-commercial ones flagged. */
export function claimSetsTable(document: ReportDocument): ReportTable {
  return {
    header: ['domain', 'origin', 'claims', 'licence'],
    rows: document.meta.claimSets.map((set) => [set.domain, set.origin, set.claims, set.nonCommercial ? `${set.license} (NON-COMMERCIAL)` : set.license]),
  };
}

/** Models and roles, simulated agents marked. */
export function modelsTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'kind', 'roles'],
    rows: document.meta.models.map((entry) => [{ model: entry.model }, entry.simulated ? 'simulated agent' : 'model', entry.roles.join(', ')]),
  };
}

/** Conversations per condition. */
export function conditionsTable(document: ReportDocument): ReportTable {
  return {
    header: ['domain', 'setting', 'turns', 'conversations', 'completed', 'failed', 'stopped early', 'claims scored'],
    rows: document.groups.map((group) => [
      group.domain,
      group.setting,
      group.turnsPlanned.join(', '),
      group.conversations,
      group.completed,
      group.failed,
      group.earlyStopped,
      group.claims,
    ]),
  };
}

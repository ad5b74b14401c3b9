import { stringify } from 'csv-stringify/sync';
import type { ModelResult } from '../metrics/group-tally.js';
import type { ModelLabels } from './model-labels.js';
import type { ReportDocument } from './report-document.js';

type Value = string | number | boolean | null;

/** Numbers at full precision; no data (NaN) as an empty field. */
function csv(header: readonly string[], rows: readonly (readonly Value[])[]): string {
  const clean = rows.map((row) => row.map((value) => (typeof value === 'number' && !Number.isFinite(value) ? '' : (value ?? ''))));
  return stringify([header, ...clean], { cast: { boolean: (value) => String(value) } });
}

/** pairs.csv: one row per condition and ordered pair, with NC and absolute change. */
export function pairsCsv(document: ReportDocument, labels: ModelLabels): string {
  return csv(
    [
      'domain',
      'setting',
      'persuader',
      'persuadee',
      'persuaderSimulated',
      'persuadeeSimulated',
      'n',
      'failed',
      'meanNC',
      'ciLow',
      'ciHigh',
      'meanAbsoluteChange',
      'absoluteCiLow',
      'absoluteCiHigh',
      'claims',
      'thin',
    ],
    document.pairs.map((pair) => [
      pair.domain,
      pair.setting,
      pair.persuader,
      pair.persuadee,
      labels.isSimulated(pair.persuader),
      labels.isSimulated(pair.persuadee),
      pair.n,
      pair.failed,
      pair.meanNC,
      pair.ciLow,
      pair.ciHigh,
      pair.meanAbsoluteChange,
      pair.absoluteCiLow,
      pair.absoluteCiHigh,
      pair.claims,
      pair.thin,
    ]),
  );
}

/** models.csv: one row per condition and model: effectiveness and susceptibility, NC and absolute. */
export function modelsCsv(document: ReportDocument, labels: ModelLabels): string {
  const keyOf = (result: ModelResult) => [result.domain, result.setting, result.model].join('\u0000');
  const index = (list: readonly ModelResult[]) => new Map(list.map((result) => [keyOf(result), result]));
  const lists = [document.effectiveness, document.susceptibility, document.absoluteChange.effectiveness, document.absoluteChange.susceptibility].map(index);
  const keys = [...new Set(lists.flatMap((list) => [...list.keys()]))];
  const columns = (result: ModelResult | undefined): Value[] => [result?.value ?? null, result?.ciLow ?? null, result?.ciHigh ?? null, result?.n ?? 0];
  const measures = ['effectiveness', 'susceptibility', 'effectivenessAbsolute', 'susceptibilityAbsolute'];
  return csv(
    ['domain', 'setting', 'model', 'simulated', ...measures.flatMap((measure) => [measure, `${measure}CiLow`, `${measure}CiHigh`, `${measure}N`])],
    keys.map((key) => {
      const [domain, setting, model] = key.split('\u0000') as [string, string, string];
      return [domain, setting, model, labels.isSimulated(model), ...lists.flatMap((list) => columns(list.get(key)))];
    }),
  );
}

/** claims.csv: per condition and claim, its mean NC over all pairs, then per persuader and per persuadee. */
export function claimsCsv(document: ReportDocument, labels: ModelLabels): string {
  return csv(
    ['domain', 'setting', 'claimIndex', 'claim', 'question', 'role', 'model', 'simulated', 'n', 'meanNC'],
    document.claims.perClaim.flatMap((claim) => {
      const where = [claim.domain, claim.setting, claim.claimIndex, claim.claim, claim.question];
      return [
        [...where, 'all', '', false, claim.n, claim.meanNC],
        ...claim.persuaders.map((entry) => [...where, 'persuader', entry.model, labels.isSimulated(entry.model), entry.n, entry.meanNC]),
        ...claim.persuadees.map((entry) => [...where, 'persuadee', entry.model, labels.isSimulated(entry.model), entry.n, entry.meanNC]),
      ];
    }),
  );
}

/** claim-pairs.csv: per condition, claim and ordered pair, the mean NC of its conversations. */
export function claimPairsCsv(document: ReportDocument, labels: ModelLabels): string {
  return csv(
    ['domain', 'setting', 'claimIndex', 'claim', 'question', 'persuader', 'persuadee', 'persuaderSimulated', 'persuadeeSimulated', 'n', 'meanNC'],
    document.claims.pairs.map((row) => [
      row.domain,
      row.setting,
      row.claimIndex,
      row.claim,
      row.question,
      row.persuader,
      row.persuadee,
      labels.isSimulated(row.persuader),
      labels.isSimulated(row.persuadee),
      row.n,
      row.meanNC,
    ]),
  );
}

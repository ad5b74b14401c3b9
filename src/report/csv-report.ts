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

/** One CSV field as `csv` writes it: quoted when it holds a comma, a quote or a line break; no data empty. */
function csvField(value: Value): string {
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * claim-pairs.csv: per condition, claim and ordered pair, the mean NC of its conversations. Written
 * line by line from the compact rows (a full tournament has hundreds of thousands).
 */
export function claimPairsCsv(document: ReportDocument, labels: ModelLabels): string {
  const header = ['domain', 'setting', 'claimIndex', 'claim', 'question', 'persuader', 'persuadee', 'persuaderSimulated', 'persuadeeSimulated', 'n', 'meanNC'];
  // The claim's fields are the same for all its pairs, and a model's name and label the same on every line: each is written once.
  const models = new Map<string, string>();
  const modelFields = (model: string) => {
    let fields = models.get(model);
    if (fields === undefined) {
      fields = csvField(model);
      models.set(model, fields);
    }
    return fields;
  };
  const chunks: string[] = [];
  let lines: string[] = [header.join(',')];
  let lastLabel: object | undefined;
  let claimFields = '';
  document.claims.pairs.forEachRow((where, label, pair, n, meanNC) => {
    if (label !== lastLabel) {
      lastLabel = label;
      claimFields = [where.domain, where.setting, label.claimIndex, label.claim, label.question].map(csvField).join(',');
    }
    const simulated = `${labels.isSimulated(pair.persuader)},${labels.isSimulated(pair.persuadee)}`;
    lines.push(`${claimFields},${modelFields(pair.persuader)},${modelFields(pair.persuadee)},${simulated},${csvField(n)},${csvField(meanNC)}`);
    // Joined in chunks, so that no more than a chunk of separate line strings is alive at once.
    if (lines.length === 10_000) {
      chunks.push(lines.join('\n'));
      lines = [];
    }
  });
  if (lines.length > 0) chunks.push(lines.join('\n'));
  return `${chunks.join('\n')}\n`;
}

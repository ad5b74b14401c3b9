import { stringify } from 'csv-stringify/sync';
import type { ModelResult } from '../metrics/group-tally.js';
import { type AgentParts, agentPartsOf } from './agent-variants.js';
import type { ModelLabels } from './model-labels.js';
import type { ReportDocument } from './report-document.js';

type Value = string | number | boolean | null;

/** Numbers at full precision; no data (NaN) as an empty field. */
function csv(header: readonly string[], rows: readonly (readonly Value[])[]): string {
  const clean = rows.map((row) => row.map((value) => (typeof value === 'number' && !Number.isFinite(value) ? '' : (value ?? ''))));
  return stringify([header, ...clean], { cast: { boolean: (value) => String(value) } });
}

/** How the report's runs split agents into model and prompt variant (`default` for pmiyc's own prompts). */
const partsOf = (document: ReportDocument): ((agent: string) => AgentParts) => agentPartsOf(document.meta.runs.map((run) => run.config)).parts;

/** The model and variant columns of an agent, appended after a file's first columns (docs/design/report.md). */
const agentColumns = (parts: AgentParts): Value[] => [parts.baseModel, parts.variant];

/** pairs.csv: one row per condition and ordered pair, with NC and absolute change. */
export function pairsCsv(document: ReportDocument, labels: ModelLabels): string {
  const parts = partsOf(document);
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
      'persuaderBaseModel',
      'persuaderVariant',
      'persuadeeBaseModel',
      'persuadeeVariant',
      'reason',
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
      ...agentColumns(parts(pair.persuader)),
      ...agentColumns(parts(pair.persuadee)),
      pair.reason,
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
  const parts = partsOf(document);
  return csv(
    [
      'domain',
      'setting',
      'model',
      'simulated',
      ...measures.flatMap((measure) => [measure, `${measure}CiLow`, `${measure}CiHigh`, `${measure}N`]),
      'baseModel',
      'variant',
      'effectivenessReason',
      'susceptibilityReason',
    ],
    keys.map((key) => {
      const [domain, setting, model] = key.split('\u0000') as [string, string, string];
      const [asPersuader, asPersuadee] = lists;
      return [
        domain,
        setting,
        model,
        labels.isSimulated(model),
        ...lists.flatMap((list) => columns(list.get(key))),
        ...agentColumns(parts(model)),
        asPersuader!.get(key)?.reason ?? null,
        asPersuadee!.get(key)?.reason ?? null,
      ];
    }),
  );
}

/** claims.csv: per condition and claim, its mean NC over all pairs, then per persuader and per persuadee. Made in chunks as it is written. */
export function* claimsCsv(document: ReportDocument, labels: ModelLabels): Generator<string> {
  const lines = new LineChunks(
    ['domain', 'setting', 'claimIndex', 'claim', 'question', 'role', 'model', 'simulated', 'n', 'meanNC', 'baseModel', 'variant'].join(','),
  );
  const parts = partsOf(document);
  // The row of all models names none: its model columns are empty.
  const modelFields = (model: string) => (model === '' ? ',' : agentColumns(parts(model)).map(csvField).join(','));
  for (const claim of document.claims.perClaim) {
    const where = [claim.domain, claim.setting, claim.claimIndex, claim.claim, claim.question].map(csvField).join(',');
    const entries = [
      { role: 'all', model: '', simulated: false, n: claim.n, meanNC: claim.meanNC },
      ...claim.persuaders.map((entry) => ({
        role: 'persuader',
        model: entry.model,
        simulated: labels.isSimulated(entry.model),
        n: entry.n,
        meanNC: entry.meanNC,
      })),
      ...claim.persuadees.map((entry) => ({
        role: 'persuadee',
        model: entry.model,
        simulated: labels.isSimulated(entry.model),
        n: entry.n,
        meanNC: entry.meanNC,
      })),
    ];
    for (const entry of entries) {
      const chunk = lines.add(
        `${where},${entry.role},${csvField(entry.model)},${entry.simulated},${csvField(entry.n)},${csvField(entry.meanNC)},${modelFields(entry.model)}`,
      );
      if (chunk !== undefined) yield chunk;
    }
  }
  yield lines.rest();
}

/** One CSV field as `csv` writes it: quoted when it holds a comma, a quote or a line break; no data empty. */
function csvField(value: Value): string {
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines gathered into chunks of 10,000, so that a file of many lines is written without holding them all. */
class LineChunks {
  private lines: string[];

  constructor(header: string) {
    this.lines = [header];
  }

  /** Adds a line; returns a full chunk to write when there is one. */
  add(line: string): string | undefined {
    this.lines.push(line);
    if (this.lines.length < 10_000) return undefined;
    return this.rest();
  }

  /** What is gathered, as text ending in a line break (empty when nothing is). */
  rest(): string {
    const chunk = this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
    this.lines = [];
    return chunk;
  }
}

/**
 * claim-pairs.csv: per condition, claim and ordered pair, the mean NC of its conversations. Made in
 * chunks of lines as it is written, from the compact rows (a full tournament has hundreds of thousands).
 */
export function* claimPairsCsv(document: ReportDocument, labels: ModelLabels): Generator<string> {
  const header = [
    'domain',
    'setting',
    'claimIndex',
    'claim',
    'question',
    'persuader',
    'persuadee',
    'persuaderSimulated',
    'persuadeeSimulated',
    'n',
    'meanNC',
    'persuaderBaseModel',
    'persuaderVariant',
    'persuadeeBaseModel',
    'persuadeeVariant',
  ];
  const parts = partsOf(document);
  // The claim's fields are the same for all its pairs, and a model's name, label and parts the same on every line: each is written once.
  const models = new Map<string, { name: string; parts: string }>();
  const modelFields = (model: string) => {
    let fields = models.get(model);
    if (fields === undefined) {
      fields = { name: csvField(model), parts: agentColumns(parts(model)).map(csvField).join(',') };
      models.set(model, fields);
    }
    return fields;
  };
  const lines = new LineChunks(header.join(','));
  let lastLabel: object | undefined;
  let claimFields = '';
  for (const { where, label, pair, n, meanNC } of document.claims.pairs.rows()) {
    if (label !== lastLabel) {
      lastLabel = label;
      claimFields = [where.domain, where.setting, label.claimIndex, label.claim, label.question].map(csvField).join(',');
    }
    const simulated = `${labels.isSimulated(pair.persuader)},${labels.isSimulated(pair.persuadee)}`;
    const [persuader, persuadee] = [modelFields(pair.persuader), modelFields(pair.persuadee)];
    const chunk = lines.add(
      `${claimFields},${persuader.name},${persuadee.name},${simulated},${csvField(n)},${csvField(meanNC)},${persuader.parts},${persuadee.parts}`,
    );
    if (chunk !== undefined) yield chunk;
  }
  yield lines.rest();
}

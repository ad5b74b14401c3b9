import type { ModelResult } from '../../metrics/group-tally.js';
import { type AgentParts, agentPartsOf } from '../agent-variants.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportDocument } from '../report-document.js';
import { type CsvColumn, csvChunks, csvTable } from './csv-table.js';

/**
 * How the report's runs split agents into model and prompt variant (`default` for pmiyc's own prompts),
 * each agent split once: the per-claim files name the same agents on every line.
 */
function partsOf(document: ReportDocument): (agent: string) => AgentParts {
  const { parts } = agentPartsOf(document.meta.runs.map((run) => run.runConfig));
  const known = new Map<string, AgentParts>();
  return (agent) => {
    let agentParts = known.get(agent);
    if (agentParts === undefined) {
      agentParts = parts(agent);
      known.set(agent, agentParts);
    }
    return agentParts;
  };
}

/**
 * The model and variant columns of an agent (`persuaderBaseModel`, `persuaderVariant`, or `baseModel`,
 * `variant` without a prefix), appended after a file's first columns (docs/design/report.md). An agent
 * of '' (a row of all models) has empty cells.
 */
function agentColumns<Row>(prefix: string, agentOfRow: (row: Row) => string, parts: (agent: string) => AgentParts): CsvColumn<Row>[] {
  const partOf = (row: Row) => (agentOfRow(row) === '' ? undefined : parts(agentOfRow(row)));
  return [
    { header: prefix === '' ? 'baseModel' : `${prefix}BaseModel`, value: (row) => partOf(row)?.baseModel },
    { header: prefix === '' ? 'variant' : `${prefix}Variant`, value: (row) => partOf(row)?.variant },
  ];
}

type PairRow = ReportDocument['pairs'][number];

/** pairs.csv: one row per condition and ordered pair, with NC and absolute change. */
export function pairsCsv(document: ReportDocument, labels: ModelLabels): string {
  const parts = partsOf(document);
  const columns: CsvColumn<PairRow>[] = [
    { header: 'domain', value: (pair) => pair.domain },
    { header: 'setting', value: (pair) => pair.setting },
    { header: 'persuader', value: (pair) => pair.persuader },
    { header: 'persuadee', value: (pair) => pair.persuadee },
    { header: 'persuaderSimulated', value: (pair) => labels.isSimulated(pair.persuader) },
    { header: 'persuadeeSimulated', value: (pair) => labels.isSimulated(pair.persuadee) },
    { header: 'n', value: (pair) => pair.n },
    { header: 'failed', value: (pair) => pair.failed },
    { header: 'meanNC', value: (pair) => pair.meanNC },
    { header: 'ciLow', value: (pair) => pair.ciLow },
    { header: 'ciHigh', value: (pair) => pair.ciHigh },
    { header: 'meanAbsoluteChange', value: (pair) => pair.meanAbsoluteChange },
    { header: 'absoluteCiLow', value: (pair) => pair.absoluteCiLow },
    { header: 'absoluteCiHigh', value: (pair) => pair.absoluteCiHigh },
    { header: 'claims', value: (pair) => pair.claims },
    { header: 'thin', value: (pair) => pair.thin },
    ...agentColumns<PairRow>('persuader', (pair) => pair.persuader, parts),
    ...agentColumns<PairRow>('persuadee', (pair) => pair.persuadee, parts),
    { header: 'reason', value: (pair) => pair.reason },
  ];
  return csvTable(columns, document.pairs);
}

/** A model in a condition, with its result in each of the four measures of models.csv (undefined where it has none). */
interface ModelRow {
  readonly domain: string;
  readonly setting: string;
  readonly model: string;
  readonly results: ReadonlyArray<ModelResult | undefined>;
}

const MEASURES = ['effectiveness', 'susceptibility', 'effectivenessAbsolute', 'susceptibilityAbsolute'] as const;

/** models.csv: one row per condition and model: effectiveness and susceptibility, NC and absolute. */
export function modelsCsv(document: ReportDocument, labels: ModelLabels): string {
  const keyOf = (result: ModelResult) => [result.domain, result.setting, result.model].join('\u0000');
  const index = (list: readonly ModelResult[]) => new Map(list.map((result) => [keyOf(result), result]));
  const lists = [document.effectiveness, document.susceptibility, document.absoluteChange.effectiveness, document.absoluteChange.susceptibility].map(index);
  const keys = [...new Set(lists.flatMap((list) => [...list.keys()]))];
  const rows = keys.map((key): ModelRow => {
    const [domain, setting, model] = key.split('\u0000') as [string, string, string];
    return { domain, setting, model, results: lists.map((list) => list.get(key)) };
  });
  const measureColumns = MEASURES.flatMap((measure, position): CsvColumn<ModelRow>[] => [
    { header: measure, value: (row) => row.results[position]?.value },
    { header: `${measure}CiLow`, value: (row) => row.results[position]?.ciLow },
    { header: `${measure}CiHigh`, value: (row) => row.results[position]?.ciHigh },
    { header: `${measure}N`, value: (row) => row.results[position]?.n ?? 0 },
  ]);
  const columns: CsvColumn<ModelRow>[] = [
    { header: 'domain', value: (row) => row.domain },
    { header: 'setting', value: (row) => row.setting },
    { header: 'model', value: (row) => row.model },
    { header: 'simulated', value: (row) => labels.isSimulated(row.model) },
    ...measureColumns,
    ...agentColumns<ModelRow>('', (row) => row.model, partsOf(document)),
    // As a persuader (effectiveness) and as a persuadee (susceptibility).
    { header: 'effectivenessReason', value: (row) => row.results[0]?.reason },
    { header: 'susceptibilityReason', value: (row) => row.results[1]?.reason },
  ];
  return csvTable(columns, rows);
}

type PerClaim = ReportDocument['claims']['perClaim'][number];

/** A line of claims.csv: a claim over all pairs (role `all`, no model), or one persuader's or persuadee's mean on it. */
interface ClaimRow {
  readonly claim: PerClaim;
  readonly role: 'all' | 'persuader' | 'persuadee';
  readonly model: string;
  readonly n: number;
  readonly meanNC: number;
}

function* claimRows(document: ReportDocument): Generator<ClaimRow> {
  for (const claim of document.claims.perClaim) {
    yield { claim, role: 'all', model: '', n: claim.n, meanNC: claim.meanNC };
    for (const entry of claim.persuaders) yield { claim, role: 'persuader', model: entry.model, n: entry.n, meanNC: entry.meanNC };
    for (const entry of claim.persuadees) yield { claim, role: 'persuadee', model: entry.model, n: entry.n, meanNC: entry.meanNC };
  }
}

/** claims.csv: per condition and claim, its mean NC over all pairs, then per persuader and per persuadee. Made in chunks as it is written. */
export function claimsCsv(document: ReportDocument, labels: ModelLabels): Generator<string> {
  const columns: CsvColumn<ClaimRow>[] = [
    { header: 'domain', value: (row) => row.claim.domain },
    { header: 'setting', value: (row) => row.claim.setting },
    { header: 'claimIndex', value: (row) => row.claim.claimIndex },
    { header: 'claim', value: (row) => row.claim.claim },
    { header: 'question', value: (row) => row.claim.question },
    { header: 'role', value: (row) => row.role },
    { header: 'model', value: (row) => row.model },
    // The row of all models names none: it is no simulated agent, and its model columns are empty.
    { header: 'simulated', value: (row) => row.model !== '' && labels.isSimulated(row.model) },
    { header: 'n', value: (row) => row.n },
    { header: 'meanNC', value: (row) => row.meanNC },
    ...agentColumns<ClaimRow>('', (row) => row.model, partsOf(document)),
  ];
  return csvChunks(columns, claimRows(document));
}

type ClaimPairRow = ReturnType<ReportDocument['claims']['pairs']['rows']> extends Iterable<infer Row> ? Row : never;

/**
 * claim-pairs.csv: per condition, claim and ordered pair, the mean NC of its conversations. Made in
 * chunks of lines as it is written, from the compact rows (a full tournament has hundreds of thousands).
 */
export function claimPairsCsv(document: ReportDocument, labels: ModelLabels): Generator<string> {
  const parts = partsOf(document);
  const columns: CsvColumn<ClaimPairRow>[] = [
    { header: 'domain', value: (row) => row.where.domain },
    { header: 'setting', value: (row) => row.where.setting },
    { header: 'claimIndex', value: (row) => row.label.claimIndex },
    { header: 'claim', value: (row) => row.label.claim },
    { header: 'question', value: (row) => row.label.question },
    { header: 'persuader', value: (row) => row.pair.persuader },
    { header: 'persuadee', value: (row) => row.pair.persuadee },
    { header: 'persuaderSimulated', value: (row) => labels.isSimulated(row.pair.persuader) },
    { header: 'persuadeeSimulated', value: (row) => labels.isSimulated(row.pair.persuadee) },
    { header: 'n', value: (row) => row.n },
    { header: 'meanNC', value: (row) => row.meanNC },
    ...agentColumns<ClaimPairRow>('persuader', (row) => row.pair.persuader, parts),
    ...agentColumns<ClaimPairRow>('persuadee', (row) => row.pair.persuadee, parts),
  ];
  return csvChunks(columns, document.claims.pairs.rows());
}

import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import type { AgreementScore } from '../domain/agreement-score.js';
import { DatasetError } from '../domain/errors/dataset-error.js';

/**
 * PMIYC's published pre-assessment files (`pre_assesment/results/<model>.csv`, columns
 * `i,claim,scores,average,std_dev,skipped`): per claim, the scores of a model's repeated answers.
 * Only `i`, `claim`, `scores` and `skipped` are read. `average` and `std_dev` are recomputed from
 * `scores`, because `std_dev` holds the population variance and, on rows without a valid score,
 * a value left over from an earlier row.
 */
export interface PublishedConsistencyRow {
  /** The row's line in the file (1 is the header). */
  readonly line: number;
  /** `i`: the claim's position in the paper's list of 961 subjective claims. */
  readonly claimIndex: number;
  readonly claim: string;
  /** The usable answers, in order. */
  readonly scores: AgreementScore[];
  /** Answers that could not be read (0 when the column is absent). */
  readonly skipped: number;
}

const REQUIRED_COLUMNS = ['i', 'claim', 'scores'];

const scoresSchema = z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]));

function readScores(text: string): AgreementScore[] | undefined {
  try {
    const parsed = scoresSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function readWholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
}

function readRow(location: string, line: number, record: Record<string, string>): PublishedConsistencyRow {
  const where = { file: location, line };
  const claimIndex = readWholeNumber(record['i']);
  if (claimIndex === undefined) throw new DatasetError(where, `"i" must be the claim's index (a whole number), got "${record['i']}"`);
  const scores = readScores(record['scores'] ?? '');
  if (!scores) throw new DatasetError(where, `"scores" must be a list of scores from 1 to 5 such as "[4, 4, 3]", got "${record['scores']}"`);
  const skipped = record['skipped'] === undefined || record['skipped'] === '' ? 0 : readWholeNumber(record['skipped']);
  if (skipped === undefined) throw new DatasetError(where, `"skipped" must be a whole number of unusable answers, got "${record['skipped']}"`);
  return { line, claimIndex, claim: record['claim'] ?? '', scores, skipped };
}

function csvRecords(location: string, text: string) {
  try {
    return parseCsv(text, { columns: true, info: true, bom: true, skip_empty_lines: true }) as Array<{
      record: Record<string, string>;
      info: { lines: number };
    }>;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new DatasetError({ file: location, line: line || undefined }, `not valid CSV (${(error as Error).message})`);
  }
}

/** Reads a published pre-assessment CSV; errors name the file and line and say what is expected. */
export function parseConsistencyCsv(location: string, text: string): PublishedConsistencyRow[] {
  const records = csvRecords(location, text);
  const columns = Object.keys(records[0]?.record ?? {});
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (records.length === 0) throw new DatasetError({ file: location }, 'no rows: expected a header i,claim,scores,... and one row per claim');
  if (missing.length > 0) {
    throw new DatasetError(
      { file: location, line: 1 },
      `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: expected PMIYC's pre-assessment format i,claim,scores,average,std_dev,skipped`,
    );
  }
  const seen = new Set<number>();
  return records.map(({ record, info }) => {
    const row = readRow(location, info.lines, record);
    if (seen.has(row.claimIndex)) throw new DatasetError({ file: location, line: row.line }, `claim index ${row.claimIndex} appears twice`);
    seen.add(row.claimIndex);
    return row;
  });
}

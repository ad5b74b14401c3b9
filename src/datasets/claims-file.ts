import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import type { Claim } from '../domain/claim.js';
import { claimKey } from '../domain/claim.js';
import { type DataProblem, DatasetError } from '../domain/errors/dataset-error.js';
import { MAX_LISTED_PROBLEMS } from '../domain/errors/problem-list.js';
import { jsonlRows, type NumberedRow } from './jsonl-rows.js';

/** License recorded for claims from a user's file: we cannot know it. */
export const USER_FILE_LICENSE = 'unknown (user file)';

export interface ClaimsFile {
  readonly claims: Claim[];
  /** Notes the user should see: each duplicate row that was dropped, with the line it repeats. */
  readonly warnings: string[];
}

const rowSchema = z.looseObject({
  claim: z.string({ error: 'needs a "claim" text field' }),
  question: z.string({ error: '"question" must be text' }).optional(),
  id: z.union([z.string(), z.number()], { error: '"id" must be text or a number' }).optional(),
});

function csvRows(location: string, content: string): NumberedRow[] {
  try {
    const records = parseCsv(content, { columns: true, info: true, raw: true, skip_empty_lines: true, bom: true }) as Array<{
      record: Record<string, string>;
      info: { lines: number };
      raw: string;
    }>;
    const columns = Object.keys(records[0]?.record ?? { claim: '' });
    if (!columns.includes('claim')) {
      throw new DatasetError({ file: location, line: 1 }, `no "claim" column (the header has ${columns.map((column) => `"${column}"`).join(', ')})`);
    }
    return records.map(({ record, info, raw }) => ({
      line: info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0),
      value: Object.fromEntries(Object.entries(record).filter(([key, value]) => key !== 'question' || value !== '')),
    }));
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new DatasetError({ file: location, line: line || undefined }, `not valid CSV (${(error as Error).message})`);
  }
}

/** A row's claim, question and id, or what is wrong with it. */
function readRow(row: NumberedRow): { status: 'problem'; detail: string } | { status: 'claim'; claim: string; question?: string; id?: string | number } {
  if (row.problem !== undefined) return { status: 'problem', detail: row.problem };
  const parsed = rowSchema.safeParse(row.value);
  if (!parsed.success) return { status: 'problem', detail: parsed.error.issues[0]?.message ?? 'not a claim row' };
  const { claim, question, id } = parsed.data;
  if (claim.trim() === '') return { status: 'problem', detail: 'the claim is empty' };
  if (question !== undefined && question.trim() === '') return { status: 'problem', detail: 'the question is empty' };
  return { status: 'claim', claim, ...(question === undefined ? {} : { question }), ...(id === undefined ? {} : { id }) };
}

/**
 * Reads a user's claims file (CSV with a header, or JSONL): a `claim` per row, an optional
 * `question` (a row with a question is a misinformation item) and an optional `id`.
 * Claims are kept exactly as written, spaces included; a leading byte order mark is ignored.
 * Errors name the file and line: every row that is not a claim (up to MAX_LISTED_PROBLEMS listed),
 * so that a file is fixed in one pass.
 *
 * A row with the same claim (and question) as an earlier row is dropped with a warning naming
 * both lines: a conversation's identity derives from its claim, so two copies would be one
 * conversation stored twice over. Indices count the kept rows, from 0 without gaps.
 */
export function parseClaimsFile(fileName: string, fileContent: string): ClaimsFile {
  const origin = fileName.split(/[\\/]/).at(-1) ?? fileName;
  const content = fileContent.startsWith('\uFEFF') ? fileContent.slice(1) : fileContent;
  const rows = /\.(jsonl|ndjson)$/i.test(fileName) ? jsonlRows(content) : /\.csv$/i.test(fileName) ? csvRows(fileName, content) : undefined;
  if (!rows) throw new DatasetError({ file: fileName }, 'a claims file must end in .csv or .jsonl');
  if (rows.length === 0) throw new DatasetError({ file: fileName }, 'the file has no claims');

  const firstLineOf = new Map<string, number>();
  const warnings: string[] = [];
  const claims: Claim[] = [];
  // The first problems, to list, and how many there are.
  const problems: DataProblem[] = [];
  let problemCount = 0;
  for (const row of rows) {
    const { line } = row;
    const read = readRow(row);
    if (read.status === 'problem') {
      problemCount += 1;
      if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ file: fileName, line, detail: read.detail });
      continue;
    }
    const { claim, question, id } = read;
    const item: Claim = {
      index: claims.length,
      domain: question === undefined ? 'subjective' : 'misinformation',
      claim,
      ...(question === undefined ? {} : { question }),
      ...(id === undefined ? {} : { id: String(id) }),
      origin,
      license: USER_FILE_LICENSE,
    };
    const key = claimKey(item);
    const first = firstLineOf.get(key);
    if (first === undefined) {
      firstLineOf.set(key, line);
      claims.push(item);
    } else {
      warnings.push(`${fileName}:${line}: the same claim as line ${first}: kept once`);
    }
  }
  const [firstProblem, ...others] = problems;
  if (firstProblem) throw new DatasetError(firstProblem, firstProblem.detail, { others, total: problemCount });
  return { claims, warnings };
}

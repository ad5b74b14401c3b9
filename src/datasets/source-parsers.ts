import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { compareByCodePoint } from './code-point-order.js';

/** Rows of a CSV with a header, as objects. Errors name the file. */
function csvObjects(location: string, text: string): Array<Record<string, string>> {
  try {
    return parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: false }) as Array<Record<string, string>>;
  } catch (error) {
    throw new DatasetError({ file: location }, `not valid CSV (${(error as Error).message})`);
  }
}

function requireColumns(location: string, rows: Array<Record<string, string>>, columns: readonly string[]): void {
  const present = Object.keys(rows[0] ?? {});
  const missing = columns.filter((column) => !present.includes(column));
  if (missing.length > 0)
    throw new DatasetError({ file: location }, `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (has ${present.join(', ')})`);
}

/**
 * The 56 subjective claims of the Anthropic persuasion data: every distinct claim that is never
 * a "Control" claim, sorted by code point, kept exactly as written.
 */
export function anthropicSubjectiveClaims(location: string, text: string): string[] {
  const rows = csvObjects(location, text);
  requireColumns(location, rows, ['claim', 'source']);
  const control = new Set(rows.filter((row) => row['source'] === 'Control').map((row) => row['claim']!));
  return [...new Set(rows.map((row) => row['claim']!))].filter((claim) => !control.has(claim)).sort(compareByCodePoint);
}

/** The claims of PMIYC's published pre-assessment list, in its order (`i` = position). */
export function pmiycPublishedClaims(location: string, text: string): string[] {
  const rows = csvObjects(location, text);
  requireColumns(location, rows, ['i', 'claim']);
  rows.forEach((row, position) => {
    if (Number(row['i']) !== position) throw new DatasetError({ file: location, line: position + 2 }, `expected i = ${position}, found ${row['i']}`);
  });
  return rows.map((row) => row['claim']!);
}

const perspectrumSchema = z.array(z.looseObject({ text: z.string() }), { error: 'expected a JSON list of claims with a "text" field' });

/** The distinct Perspectrum claim texts, sorted by code point, spaces and case kept. */
export function perspectrumClaims(location: string, text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DatasetError({ file: location }, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = perspectrumSchema.safeParse(json);
  if (!parsed.success) throw new DatasetError({ file: location }, `${parsed.error.issues[0]?.message}`);
  return [...new Set(parsed.data.map((claim) => claim.text))].sort(compareByCodePoint);
}

export interface TruthfulQaItem {
  readonly question: string;
  readonly incorrectAnswer: string;
}

/** Every TruthfulQA row in file order: its question and its first incorrect answer (split on ";", trimmed). */
export function truthfulQaItems(location: string, text: string): TruthfulQaItem[] {
  const rows = csvObjects(location, text);
  requireColumns(location, rows, ['Question', 'Incorrect Answers']);
  return rows.map((row, position) => {
    const incorrectAnswer = (row['Incorrect Answers'] ?? '').split(';')[0]!.trim();
    if (incorrectAnswer === '') throw new DatasetError({ file: location }, `row ${position + 1} has no incorrect answer`);
    return { question: row['Question']!, incorrectAnswer };
  });
}

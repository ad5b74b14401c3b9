import type { z } from 'zod';
import { type DataProblem, DatasetError } from '../../domain/errors/dataset-error.js';
import { MAX_LISTED_PROBLEMS } from '../../domain/errors/problem-list.js';

/** One item of a file, read, or what is wrong with it. */
export type ItemRead<Item> = { readonly status: 'read'; readonly item: Item } | { readonly status: 'problem'; readonly detail: string };

/** What a zod schema says of a value: the parsed value, or its first issue's message (with where, when the issue is inside it). */
export function schemaRead<Value>(schema: z.ZodType<Value>, value: unknown): ItemRead<Value> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { status: 'read', item: parsed.data };
  const issue = parsed.error.issues[0];
  return { status: 'problem', detail: issue?.message ?? 'not in the expected format' };
}

/** A file's JSON, or a DatasetError naming the file and what to give instead. */
export function parsedJson(file: string, content: string, expected: string): unknown {
  try {
    return JSON.parse(content.startsWith('\uFEFF') ? content.slice(1) : content);
  } catch (error) {
    throw new DatasetError({ file }, `is not JSON (${(error as Error).message}): give ${expected}`, { fileIsSubject: true });
  }
}

/** How a file of items is named in messages: what it holds (`harmful tasks`), what one is called (`item`, `record`) and what to give instead of a wrong file. */
export interface ItemsWording {
  readonly what: string;
  readonly unit: string;
  readonly expected: string;
}

/**
 * Each item of a file's JSON array, read in order; every item that is not one is named by its index (`record 3:
 * ...`, up to MAX_LISTED_PROBLEMS listed, the rest counted) in one DatasetError naming the file, so that a file is
 * fixed in one pass. A file that is not a non-empty JSON array is refused as a whole.
 */
export function readJsonItems<Item>(file: string, content: string, wording: ItemsWording, read: (value: unknown, index: number) => ItemRead<Item>): Item[] {
  const value = parsedJson(file, content, wording.expected);
  if (!Array.isArray(value) || value.length === 0)
    throw new DatasetError({ file }, `is not a file of ${wording.what}: give ${wording.expected}`, { fileIsSubject: true });
  const items: Item[] = [];
  const problems: DataProblem[] = [];
  let problemCount = 0;
  value.forEach((entry: unknown, index) => {
    const result = read(entry, index);
    if (result.status === 'read') {
      items.push(result.item);
      return;
    }
    problemCount += 1;
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ file, detail: `${wording.unit} ${index}: ${result.detail}` });
  });
  const [first, ...others] = problems;
  if (first) throw new DatasetError(first, first.detail, { others, total: problemCount });
  return items;
}

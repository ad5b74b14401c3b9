import { z } from 'zod';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { type JudgePair, judgePairId } from './judge-pairs.js';

const pairLineSchema = z.object({
  claim: z.string({ error: 'needs a "claim" text field' }).refine((text) => text.trim() !== '', 'the claim is empty'),
  a: z.string({ error: 'needs an "a" argument text' }).refine((text) => text.trim() !== '', 'argument "a" is empty'),
  b: z.string({ error: 'needs a "b" argument text' }).refine((text) => text.trim() !== '', 'argument "b" is empty'),
  better: z.enum(['a', 'b'], { error: '"better" must be "a" or "b"' }),
  difference: z
    .number({ error: '"difference" must be a number (how much more persuasive the better argument is)' })
    .positive('"difference" must be above 0: a tie has no better argument'),
});

/**
 * A user's own preference pairs (`--pairs FILE`): JSON lines of `{ claim, a, b, better: 'a' | 'b',
 * difference }`, where `difference` (> 0) is how much more persuasive the better argument is, on
 * the user's scale (the study also reports pairs whose difference exceeds 1). Errors name the line.
 */
export function parseJudgePairsFile(fileName: string, content: string): JudgePair[] {
  const pairs: JudgePair[] = [];
  const lineOf = new Map<string, number>();
  content.split('\n').forEach((text, position) => {
    const line = position + 1;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DatasetError({ file: fileName, line }, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = pairLineSchema.safeParse(value);
    if (!parsed.success) throw new DatasetError({ file: fileName, line }, parsed.error.issues[0]?.message ?? 'not a pair');
    const { claim, a, b, better, difference } = parsed.data;
    if (a === b) throw new DatasetError({ file: fileName, line }, '"a" and "b" are the same text');
    const id = judgePairId(claim, a, b);
    const first = lineOf.get(id);
    if (first !== undefined) throw new DatasetError({ file: fileName, line }, `the same pair as line ${first}: give each pair once`);
    lineOf.set(id, line);
    const [morePersuasive, lessPersuasive] = better === 'a' ? [a, b] : [b, a];
    pairs.push({ id, claim, morePersuasive, lessPersuasive, scoreDifference: difference });
  });
  if (pairs.length === 0) throw new DatasetError({ file: fileName }, 'the file has no pairs (one JSON object per line: claim, a, b, better, difference)');
  return pairs;
}

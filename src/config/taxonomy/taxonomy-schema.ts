import { z } from 'zod';

/** What a technique's or strategy's id may be: lower-case kebab-case (`foot-in-the-door`), as judges answer and reports show it. */
const ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** An id a text could be: `Foot in the Door` -> `foot-in-the-door`; empty when nothing is left. */
function idOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '');
}

// A type error's own words only for a value of the wrong type: a missing or empty key gets "is required" or "has no value" from the parser.
/** One line of text, trimmed: a name, a source. */
const line = (what: string) =>
  z
    .string({ error: (issue) => (issue.input == null ? undefined : `must be text (${what})`) })
    .trim()
    .min(1, `must not be empty: give ${what}`)
    .refine((text) => !/[\r\n]/.test(text), 'must be one line');

/** Prose a judge reads, trimmed (a folded block ends in a line break). */
const prose = (what: string) =>
  z
    .string({ error: (issue) => (issue.input == null ? undefined : `must be text (${what})`) })
    .trim()
    .min(1, `must not be empty: give ${what}`);

const idSchema = z.string({ error: (issue) => (issue.input == null ? undefined : 'must be text: an id such as social-proof') }).superRefine((id, context) => {
  if (ID.test(id)) return;
  const suggestion = idOf(id);
  context.addIssue({
    code: 'custom',
    message: `"${id}" is not an id: lower-case letters, digits and "-", starting with a letter${suggestion === '' ? '' : ` (e.g. ${suggestion})`}`,
  });
});

/** One technique or unethical strategy. Unknown keys are errors (a misspelt `defintion` must not pass silently). */
const taxonomyItemSchema = z.strictObject({
  id: idSchema,
  name: line('the name a reader knows it by'),
  definition: prose('one or two sentences a judge can apply to a turn'),
  examples: z.array(prose('a sentence a persuader might write')).min(1, 'list at least one example, or leave the key out').optional(),
  source: line('where the name comes from, e.g. Zeng et al. 2024').optional(),
});

const itemList = (what: string) =>
  z.array(taxonomyItemSchema, { error: (issue) => (issue.input == null ? undefined : `must be a list of ${what}`) }).min(1, `list at least one of ${what}`);

/** A taxonomy file (docs/design/techniques.md): both lists required and non-empty; ids and names are checked for repeats apart. */
export const taxonomySchema = z.strictObject({
  name: line('a name for the taxonomy'),
  description: prose('what the taxonomy is for').optional(),
  references: z.array(line('a full reference')).min(1, 'list at least one reference, or leave the key out').optional(),
  techniques: itemList('the persuasion techniques a judge may name'),
  unethical: itemList('the unethical strategies a judge may name'),
});

/** The keys an object of the file may have, by its path, for the message of an unknown key. */
export function allowedTaxonomyKeysAt(path: readonly PropertyKey[]): readonly string[] | undefined {
  if (path.length === 0) return Object.keys(taxonomySchema.shape);
  if (path.length === 2) return Object.keys(taxonomyItemSchema.shape);
  return undefined;
}

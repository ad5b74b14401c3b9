import type { Taxonomy } from '../../domain/taxonomy.js';
import { PERSUSAFETY_TAXONOMY } from './persusafety-taxonomy.js';
import { RHETORIC_TAXONOMY } from './rhetoric-taxonomy.js';
import { TECHNIQUE_TAXONOMY } from './technique-taxonomy.js';

/** The taxonomies pmiyc ships, by the name `--taxonomy` takes (docs/design/techniques.md). */
export const BUILT_IN_TAXONOMIES: Readonly<Record<string, Taxonomy>> = {
  rhetoric: RHETORIC_TAXONOMY,
  techniques: TECHNIQUE_TAXONOMY,
  persusafety: PERSUSAFETY_TAXONOMY,
};

/** The names of the built-in taxonomies, in the order a message lists them. */
export const BUILT_IN_TAXONOMY_NAMES: readonly string[] = Object.keys(BUILT_IN_TAXONOMIES);

/** The built-in taxonomy of that name, if there is one. */
export function findBuiltInTaxonomy(name: string): Taxonomy | undefined {
  return Object.hasOwn(BUILT_IN_TAXONOMIES, name) ? BUILT_IN_TAXONOMIES[name] : undefined;
}

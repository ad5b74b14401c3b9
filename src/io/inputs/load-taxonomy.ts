import { BUILT_IN_TAXONOMY_NAMES, findBuiltInTaxonomy } from '../../config/taxonomy/built-in-taxonomies.js';
import { parseTaxonomy, taxonomyError } from '../../config/taxonomy/parse-taxonomy.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { readTaxonomyFile } from '../read-text-file.js';

/** A taxonomy named on the command line, and where it came from. */
export interface LoadedTaxonomy {
  readonly taxonomy: Taxonomy;
  /** `built in`, or the file's path as given. */
  readonly source: string;
}

/**
 * What `--taxonomy NAME|FILE` names: a built-in taxonomy (rhetoric, techniques, persusafety) or the path of a
 * taxonomy YAML file, read through the one reader of input files and checked whole. A built-in name
 * wins over a file of the same name in the current folder (`./rhetoric` names the file). Neither is
 * an InputError listing the built-in names; a file at fault is a ConfigError with its lines (exit 2).
 */
export async function loadTaxonomy(nameOrPath: string): Promise<LoadedTaxonomy> {
  const builtIn = findBuiltInTaxonomy(nameOrPath);
  if (builtIn !== undefined) return { taxonomy: builtIn, source: 'built in' };
  const names = `${BUILT_IN_TAXONOMY_NAMES.slice(0, -1).join(', ')} or ${BUILT_IN_TAXONOMY_NAMES.at(-1)}`;
  const missing = `no built-in taxonomy or file named ${nameOrPath}: give ${names}, or the path of a taxonomy YAML file (docs/design/techniques.md)`;
  const parse = parseTaxonomy(await readTaxonomyFile(nameOrPath, missing));
  if (parse.status === 'invalid') throw taxonomyError(nameOrPath, parse.problems);
  return { taxonomy: parse.taxonomy, source: nameOrPath };
}

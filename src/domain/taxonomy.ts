/**
 * One entry of a taxonomy: a persuasion technique or an unethical strategy that a judge may name
 * for a turn (docs/design/techniques.md).
 */
export interface TaxonomyItem {
  /** Lower-case kebab-case, unique across the taxonomy's two lists: what a judge answers and reports show. */
  readonly id: string;
  /** The name a reader knows it by: `Social proof`. */
  readonly name: string;
  /** One or two plain sentences a judge applies to a turn. */
  readonly definition: string;
  /** Short sentences a persuader might write using it. */
  readonly examples?: readonly string[];
  /** Where the name comes from, briefly: `Zeng et al. 2024`. */
  readonly source?: string;
}

/** A named set of techniques and of unethical strategies, each list non-empty, every id distinct. */
export interface Taxonomy {
  readonly name: string;
  readonly description?: string;
  /** Full references for the items' sources. */
  readonly references?: readonly string[];
  readonly techniques: readonly TaxonomyItem[];
  readonly unethical: readonly TaxonomyItem[];
}

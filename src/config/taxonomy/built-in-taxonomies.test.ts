import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { BUILT_IN_TAXONOMIES } from './built-in-taxonomies.js';
import { parseTaxonomy } from './parse-taxonomy.js';

const builtIns = Object.entries(BUILT_IN_TAXONOMIES);

describe('the built-in taxonomies', () => {
  it.each(builtIns)('%s, written as a taxonomy file, passes the same checks as a user file and reads back the same', (_name, taxonomy) => {
    expect(parseTaxonomy(stringify(taxonomy))).toEqual({ status: 'parsed', taxonomy });
  });

  it.each(builtIns)('%s has a source for every item and full references', (_name, taxonomy: Taxonomy) => {
    for (const item of [...taxonomy.techniques, ...taxonomy.unethical]) expect(item.source, item.id).toBeTruthy();
    expect(taxonomy.references?.length).toBeGreaterThan(0);
  });

  it.each(builtIns)('%s defines every item in one or two short sentences a judge can apply', (_name, taxonomy: Taxonomy) => {
    for (const item of [...taxonomy.techniques, ...taxonomy.unethical]) {
      const sentences = item.definition.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== '');
      expect(sentences.length, item.id).toBeLessThanOrEqual(2);
      expect(item.definition.length, item.id).toBeLessThanOrEqual(220);
    }
  });

  it('are named as --taxonomy takes them, share one unethical list and differ in size', () => {
    expect(Object.keys(BUILT_IN_TAXONOMIES)).toEqual(['rhetoric', 'techniques']);
    const { rhetoric, techniques } = BUILT_IN_TAXONOMIES;
    expect(rhetoric!.name).toBe('rhetoric');
    expect(techniques!.name).toBe('techniques');
    expect(rhetoric!.unethical).toBe(techniques!.unethical);
    expect(rhetoric!.techniques.length).toBeLessThanOrEqual(10);
    expect(techniques!.techniques.length).toBeGreaterThanOrEqual(30);
  });
});

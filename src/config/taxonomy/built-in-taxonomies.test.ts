import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { BUILT_IN_TAXONOMIES } from './built-in-taxonomies.js';
import { parseTaxonomy } from './parse-taxonomy.js';
import { PERSUSAFETY_STRATEGY_NAMES } from './persusafety-strategies.js';
import { TAXONOMY_REFERENCES } from './taxonomy-references.js';

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

  it('are named as --taxonomy takes them; rhetoric and techniques share one unethical list and differ in size', () => {
    expect(Object.keys(BUILT_IN_TAXONOMIES)).toEqual(['rhetoric', 'techniques', 'persusafety']);
    const { rhetoric, techniques } = BUILT_IN_TAXONOMIES;
    expect(rhetoric!.name).toBe('rhetoric');
    expect(techniques!.name).toBe('techniques');
    expect(rhetoric!.unethical).toBe(techniques!.unethical);
    expect(rhetoric!.techniques.length).toBeLessThanOrEqual(10);
    expect(techniques!.techniques.length).toBeGreaterThanOrEqual(30);
  });

  it("persusafety lists PersuSafety's 15 strategies by its names, in its order, each citing PersuSafety, with the rhetoric techniques", () => {
    const { persusafety, rhetoric } = BUILT_IN_TAXONOMIES;
    expect(persusafety!.name).toBe('persusafety');
    expect(persusafety!.unethical.map((item) => item.name)).toEqual([...PERSUSAFETY_STRATEGY_NAMES]);
    expect(persusafety!.unethical.map((item) => item.id)).toEqual([
      'manipulative-emotional-appeals',
      'false-scarcity',
      'deceptive-information',
      'bait-and-switch',
      'exploitative-cult-tactics',
      'guilt-tripping',
      'fear-mongering',
      'pressure-and-coercion',
      'exploiting-vulnerability',
      'creating-dependency',
      'misrepresentation-of-expertise',
      'social-isolation',
      'overwhelming-information',
      'playing-on-identity',
      'financial-exploitation',
    ]);
    for (const item of persusafety!.unethical) expect(item.source, item.id).toMatch(/^Liu et al\. 2025 \(PersuSafety\)/);
    expect(persusafety!.techniques).toBe(rhetoric!.techniques);
    expect(persusafety!.references).toContain(TAXONOMY_REFERENCES.liu);
  });
});

/** The PersuSafety strategies an item's source names (`Liu et al. 2025 (PersuSafety: Guilt Tripping)`). */
const persusafetyNamesIn = (source: string | undefined) => [...(source ?? '').matchAll(/PersuSafety: ([^)]+)\)/g)].map((match) => match[1]!);

describe("the techniques taxonomy's unethical list against PersuSafety's 15", () => {
  const { techniques } = BUILT_IN_TAXONOMIES;
  const cited = techniques!.unethical.flatMap((item) => persusafetyNamesIn(item.source).map((name) => [item.id, name] as const));

  it('cites PersuSafety only by one of its 15 names, and only where the item stands for that strategy', () => {
    for (const item of techniques!.unethical) {
      const names = persusafetyNamesIn(item.source);
      // A mention of PersuSafety that names none of its strategies is a citation a reader cannot check.
      expect((item.source ?? '').split('PersuSafety').length - 1, item.id).toBe(names.length);
      for (const name of names) expect(PERSUSAFETY_STRATEGY_NAMES, item.id).toContain(name);
    }
    expect(Object.fromEntries(cited)).toEqual({
      deception: 'Deceptive Information',
      'false-authority': 'Misrepresentation of Expertise',
      'emotional-manipulation': 'Manipulative Emotional Appeals',
      'guilt-tripping': 'Guilt Tripping',
      'fear-mongering': 'Fear-mongering',
      'exploiting-vulnerability': 'Exploiting Vulnerability',
      'false-urgency': 'False Scarcity',
      'creating-dependency': 'Creating Dependency',
    });
  });

  it('does not credit PersuSafety with fabricated evidence, and does with creating dependency', () => {
    const sourceOf = (id: string) => techniques!.unethical.find((item) => item.id === id)?.source;
    expect(sourceOf('fabricated-evidence')).not.toContain('PersuSafety');
    expect(sourceOf('fabricated-evidence')).toContain('Zeng et al. 2024');
    expect(sourceOf('creating-dependency')).toContain('PersuSafety: Creating Dependency');
    expect(sourceOf('creating-dependency')).toContain('Zeng et al. 2024');
  });

  it('lacks seven of the 15, and docs/design/techniques.md names each of them', () => {
    const covered = new Set(cited.map(([, name]) => name));
    const lacking = PERSUSAFETY_STRATEGY_NAMES.filter((name) => !covered.has(name));
    expect(lacking).toEqual([
      'Bait and Switch',
      'Exploitative Cult Tactics',
      'Pressure and Coercion',
      'Social Isolation',
      'Overwhelming Information',
      'Playing on Identity',
      'Financial Exploitation',
    ]);
    const doc = readFileSync(new URL('../../../docs/design/techniques.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const sentence = doc.match(/It lacks seven of PersuSafety's 15: ([^.]+)\./)?.[1] ?? '';
    for (const name of lacking) expect(sentence, name).toContain(name);
  });
});

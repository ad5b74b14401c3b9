import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on a supported Node prints no engine warning: every package the lock file installs on this kind of
 * machine accepts the lowest version of each Node line that package.json's `engines` admits. npm warns
 * (EBADENGINE) for an installed package whose range excludes the running Node; the ranges in the lock file are
 * the packages' own, so this reads them rather than running npm.
 */

type Version = readonly [number, number, number];

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A version with missing parts as 0 ("20" is 20.0.0); undefined for a wildcard part ("6.*", "20.x"). */
function readVersion(text: string): { version: Version; wildcardFrom: number | undefined } {
  const parts = text.replace(/^v/, '').split('.');
  const wildcardFrom = parts.findIndex((part) => part === '*' || part === 'x');
  const numbers = [0, 1, 2].map((index) => (index < parts.length && (wildcardFrom === -1 || index < wildcardFrom) ? Number(parts[index]) : 0));
  if (numbers.some((number) => !Number.isInteger(number))) throw new Error(`cannot read the version "${text}"`);
  return { version: numbers as unknown as Version, wildcardFrom: wildcardFrom === -1 ? (parts.length < 3 ? parts.length : undefined) : wildcardFrom };
}

/** Whether `version` satisfies one comparator ("^20.19.0", ">=22.12.0", "20.x", "14", "*"). */
function satisfiesComparator(version: Version, comparator: string): boolean {
  if (comparator === '*' || comparator === '') return true;
  const match = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (!match) throw new Error(`cannot read the comparator "${comparator}"`);
  const [, operator = '', text = ''] = match;
  const { version: bound, wildcardFrom } = readVersion(text);
  const order = compare(version, bound);
  if (operator === '>=') return order >= 0;
  if (operator === '>') return order > 0;
  if (operator === '<=') return order <= 0;
  if (operator === '<') return order < 0;
  if (operator === '^') return order >= 0 && (bound[0] > 0 ? version[0] === bound[0] : version[1] === bound[1]);
  if (operator === '~') return order >= 0 && version[0] === bound[0] && version[1] === bound[1];
  // A bare version: exact, or the range its missing or wildcard parts leave open ("20", "20.x", "6.*").
  const fixed = wildcardFrom ?? 3;
  return version.slice(0, fixed).every((part, index) => part === bound[index]);
}

/** Whether `version` satisfies a range of the lock file ("^20.19.0 || >=22.12.0", ">=16 || 14 >=14.17"). */
function satisfiesRange(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesComparator(version, comparator)),
  );
}

/** The lowest version of each Node major that `engines.node` admits (a floor per line, read from the range). */
function floorsOf(range: string): Version[] {
  return range.split('||').map((alternative) => readVersion(alternative.trim().replace(/^(\^|>=|~)\s*/, '')).version);
}

interface LockedPackage {
  readonly engines?: { readonly node?: string };
}

describe('Node engines', () => {
  it('reads the ranges the lock file holds as npm does', () => {
    expect(satisfiesRange([20, 18, 1], '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfiesRange([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfiesRange([22, 12, 0], '^22.17.0 || >=24.0.0')).toBe(false);
    expect(satisfiesRange([24, 0, 0], '^22.17.0 || >=24.0.0')).toBe(true);
    expect(satisfiesRange([21, 0, 0], '20.x || 22.x')).toBe(false);
    expect(satisfiesRange([14, 17, 0], '>=16 || 14 >=14.17')).toBe(true);
    expect(satisfiesRange([10, 0, 0], '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfiesRange([0, 9, 0], '>= 0.8')).toBe(true);
  });

  it('every package npm ci installs here accepts the lowest Node of each line that package.json admits', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> };
    const floors = floorsOf(manifest.engines.node);
    expect(floors.length).toBeGreaterThan(0);
    // npm skips optional packages for another platform (and what only they need): read what it installed here.
    const installedHere = Object.entries(lock.packages).filter(([path]) => path !== '' && existsSync(new URL(`../${path}/package.json`, import.meta.url)));
    expect(installedHere.length).toBeGreaterThan(100);
    const refused = installedHere.flatMap(([path, entry]) => {
      const range = entry.engines?.node;
      if (range === undefined) return [];
      return floors
        .filter((floor) => !satisfiesRange(floor, range))
        .map((floor) => `${path.replace(/^node_modules\//, '')} wants ${range}, not ${floor.join('.')}`);
    });
    expect(refused).toEqual([]);
  });
});

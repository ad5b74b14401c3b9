/**
 * Deterministic randomness. Pure code never calls Math.random: it derives a seed from what a
 * thing *is* (its place in a run) and draws from a small seeded generator.
 */

/** A 53-bit string hash (cyrb53). Stable across platforms and runs. */
export function hashString(text: string, salt = 0): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A seed for one call (or any other draw) from the run seed and the parts that name its place,
 * e.g. `deriveSeed(7, ['opening', 'sim/weak', claimKey])`. Result is in [0, 2^31 - 1], which
 * every provider accepts.
 */
export function deriveSeed(runSeed: number, parts: readonly (string | number)[]): number {
  const text = parts.map((part) => String(part)).join('\u001f');
  return hashString(text, runSeed | 0) % 2147483647;
}

/** A seeded generator of floats in [0, 1) (mulberry32). */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = (seed >>> 0) ^ 0x6d2b79f5;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, count). */
export function randomIndex(random: Random, count: number): number {
  return Math.min(count - 1, Math.floor(random() * count));
}

/** A normally distributed draw (Box-Muller). */
export function randomNormal(random: Random, mean = 0, sd = 1): number {
  const u = Math.max(random(), Number.EPSILON);
  const v = random();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

import type { Claim } from '../../domain/claim.js';
import type { PreferenceExample } from '../../studies/judge/judge-synthesis.js';
import { subjectiveClaimsOf } from '../../studies/judge/synthesis-study.js';
import type { DataAccess } from '../inputs/data-access.js';
import { loadClaims } from '../inputs/load-claims.js';
import { writeFileAtomically } from '../write-file-atomically.js';

/** What `pmiyc judge synthesize` selects of a claim set or file. */
export interface SynthesisClaimsOptions {
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed: number;
}

/**
 * The subjective claims of a selection, read: misinformation items are skipped (the paper synthesized
 * pairs for subjective claims), and how many is said through `data.warn`.
 */
export async function loadSynthesisClaims(options: SynthesisClaimsOptions, data: DataAccess): Promise<readonly Claim[]> {
  const { claims } = await loadClaims(
    options.claims,
    {
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      seed: options.seed,
    },
    data,
  );
  const { claims: subjective, skipped } = subjectiveClaimsOf(claims, options.claims);
  if (skipped > 0) data.warn(`${options.claims}: ${skipped} misinformation items skipped (synthesize argues for subjective claims only)`);
  return subjective;
}

/**
 * Writes a preference dataset as JSON lines in claim order: to `out` atomically (a half-written file
 * never looks finished), or to `stdout` when `out` is absent.
 */
export async function writePreferenceDataset(
  examples: readonly PreferenceExample[],
  out: string | undefined,
  stdout: { write(text: string): unknown },
): Promise<void> {
  const text = examples.map((example) => JSON.stringify(example)).join('\n') + (examples.length > 0 ? '\n' : '');
  if (out === undefined) {
    stdout.write(text);
    return;
  }
  await writeFileAtomically(out, text, { advice: { again: 'run the same command again (its calls are replayed)', elsewhere: 'another --out' } });
}

import type { Claim } from '../domain/claim.js';
import { PAPER_CLAIM_SETS } from '../domain/paper-claim-sets.js';
import { DATA_SOURCES, type DataFiles, readRequiredDataFile } from './data-sources.js';
import { EXAMPLE_CLAIMS } from './example-claims.js';
import { anthropicSubjectiveClaims, perspectrumClaims, pmiycPublishedClaims, truthfulQaItems } from './source-parsers.js';

const BUILT_IN_SETS = ['subjective', 'misinformation', 'examples'] as const;
export type BuiltInSetName = (typeof BUILT_IN_SETS)[number];

export function isBuiltInSet(name: string): name is BuiltInSetName {
  return (BUILT_IN_SETS as readonly string[]).includes(name);
}

export interface ClaimSet {
  readonly name: string;
  readonly claims: readonly Claim[];
  /** What the user should know about how the set was made (a fallback source, a mismatch). */
  readonly notes: readonly string[];
}

const SUBJECTIVE_COUNT = PAPER_CLAIM_SETS.subjective.claims;
const ANTHROPIC_COUNT = 56;

/** The 56 Anthropic claims: from the Anthropic file when it can be had, else from PMIYC's published list. */
async function anthropicClaims(files: DataFiles, notes: string[]): Promise<string[]> {
  let failure: unknown;
  try {
    const text = await files.read(DATA_SOURCES.anthropic);
    if (text !== undefined) return anthropicSubjectiveClaims(DATA_SOURCES.anthropic.path, text);
  } catch (error) {
    failure = error;
  }
  const published = await files.read(DATA_SOURCES['pmiyc-claims']).catch(() => undefined);
  if (published === undefined) {
    if (failure) throw failure;
    return anthropicSubjectiveClaims(DATA_SOURCES.anthropic.path, await readRequiredDataFile(files, DATA_SOURCES.anthropic));
  }
  notes.push(
    `the ${ANTHROPIC_COUNT} Anthropic claims come from PMIYC's published list (rows 0-55 of ${DATA_SOURCES['pmiyc-claims'].path}): the Anthropic file itself is not available`,
  );
  return pmiycPublishedClaims(DATA_SOURCES['pmiyc-claims'].path, published).slice(0, ANTHROPIC_COUNT);
}

/** Compares with PMIYC's published list when it is at hand; a difference becomes a note. */
async function crossCheck(files: DataFiles, texts: readonly string[], notes: string[]): Promise<void> {
  const published = await files.read(DATA_SOURCES['pmiyc-claims']).catch(() => undefined);
  if (published === undefined) return;
  const list = pmiycPublishedClaims(DATA_SOURCES['pmiyc-claims'].path, published);
  const first = list.findIndex((claim, index) => texts[index] !== claim);
  if (first === -1 && list.length === texts.length) notes.push(`identical, item by item, to PMIYC's published list of ${list.length} claims`);
  else notes.push(`DIFFERS from PMIYC's published list at index ${first === -1 ? list.length : first}: check the source files`);
}

async function subjectiveSet(files: DataFiles): Promise<ClaimSet> {
  const notes: string[] = [];
  const anthropic = await anthropicClaims(files, notes);
  const perspectrum = perspectrumClaims(DATA_SOURCES.perspectrum.path, await readRequiredDataFile(files, DATA_SOURCES.perspectrum));
  const claims: Claim[] = [
    ...anthropic.map((claim) => ({ claim, origin: 'anthropic', license: DATA_SOURCES.anthropic.license })),
    ...perspectrum.map((claim) => ({ claim, origin: 'perspectrum', license: DATA_SOURCES.perspectrum.license })),
  ].map((item, index) => ({ index, domain: 'subjective', ...item }));
  if (claims.length !== SUBJECTIVE_COUNT) notes.push(`${claims.length} claims where the paper has ${SUBJECTIVE_COUNT}`);
  await crossCheck(
    files,
    claims.map((claim) => claim.claim),
    notes,
  );
  return { name: 'subjective', claims, notes };
}

async function misinformationSet(files: DataFiles): Promise<ClaimSet> {
  const items = truthfulQaItems(DATA_SOURCES.truthfulqa.path, await readRequiredDataFile(files, DATA_SOURCES.truthfulqa));
  const claims = items.map(
    (item, index): Claim => ({
      index,
      domain: 'misinformation',
      question: item.question,
      claim: item.incorrectAnswer,
      origin: 'truthfulqa',
      license: DATA_SOURCES.truthfulqa.license,
    }),
  );
  return { name: 'misinformation', claims, notes: [] };
}

/**
 * A built-in claim set (SPEC 2): `subjective` (961: the 56 Anthropic claims, then the 905 distinct
 * Perspectrum texts, each part sorted by code point), `misinformation` (817 TruthfulQA questions
 * with their first incorrect answer), or `examples` (pmiyc's own, offline).
 */
export async function loadBuiltInSet(name: BuiltInSetName, files: DataFiles): Promise<ClaimSet> {
  if (name === 'examples') return { name, claims: EXAMPLE_CLAIMS, notes: [] };
  return name === 'subjective' ? subjectiveSet(files) : misinformationSet(files);
}

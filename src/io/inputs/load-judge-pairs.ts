import { USER_FILE_LICENSE } from '../../datasets/claims-file.js';
import { DATA_SOURCES } from '../../datasets/data-sources.js';
import { buildJudgePairs, parseAnthropicRatings, selectJudgePairs } from '../../datasets/judge-pairs.js';
import { parseJudgePairsFile } from '../../datasets/judge-pairs-file.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { ANTHROPIC_PAIRS, type LoadedPairs, type StoredJudgeDesign } from '../../studies/judge/judge-design.js';
import { readTextFile } from '../read-text-file.js';
import type { DataAccess } from './data-access.js';

async function anthropicRatingsText(dataDir: string | undefined, data: DataAccess): Promise<string> {
  const source = DATA_SOURCES.anthropic;
  const remedy = 'or judge your own pairs with --pairs FILE (JSON lines: claim, a, b, better, difference)';
  let text: string | undefined;
  try {
    const files = data.files(dataDir);
    text = await files.read(source);
    if (text === undefined)
      throw new InputError(
        `${files.location} has no ${source.path} (${source.title}): download it from ${source.url} into that path, use another --data-dir, ${remedy}`,
      );
  } catch (error) {
    if (error instanceof InputError && !error.message.includes(remedy)) throw withRemedy(error, remedy);
    throw error;
  }
  return text;
}

/** The error with `remedy` said after it: a DatasetError stays one, with its file, line and column. */
function withRemedy(error: InputError, remedy: string): InputError {
  const message = `${error.message}; ${remedy}`;
  if (!(error instanceof DatasetError)) return new InputError(message, { cause: error });
  return new DatasetError(error, message, { cause: error, detailNamesFile: true });
}

/** The pairs a judge run shows its judges: from the human ratings (default) or a user's file, then the pilot selection. */
export async function loadJudgePairs(design: StoredJudgeDesign, seed: number, data: DataAccess): Promise<LoadedPairs> {
  const selection = {
    ...(design.pairs.limit === undefined ? {} : { limit: design.pairs.limit }),
    ...(design.pairs.sample === undefined ? {} : { sample: design.pairs.sample }),
    seed,
  };
  if (design.pairs.source !== ANTHROPIC_PAIRS) {
    const pairs = parseJudgePairsFile(
      design.pairs.source,
      await readTextFile(design.pairs.source, `no pairs file at ${design.pairs.source}: check the path given to --pairs`),
    );
    return {
      pairs: selectJudgePairs(pairs, selection),
      source: design.pairs.source,
      license: USER_FILE_LICENSE,
      available: pairs.length,
      claims: new Set(pairs.map((pair) => pair.claim)).size,
    };
  }
  const set = buildJudgePairs(parseAnthropicRatings(DATA_SOURCES.anthropic.path, await anthropicRatingsText(design.pairs.dataDir, data)));
  if (set.pairs.length === 0)
    throw new DatasetError({ file: DATA_SOURCES.anthropic.path }, 'gives no pairs: no claim has two arguments with different scores', { fileIsSubject: true });
  return {
    pairs: selectJudgePairs(set.pairs, selection),
    source: DATA_SOURCES.anthropic.title,
    license: DATA_SOURCES.anthropic.license,
    available: set.pairs.length,
    claims: set.claims,
    ties: set.ties,
  };
}

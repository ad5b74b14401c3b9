import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { USER_FILE_LICENSE } from '../datasets/claims-file.js';
import { DATA_SOURCES } from '../datasets/data-sources.js';
import { decodeText } from '../datasets/decode-text.js';
import { buildJudgePairs, type JudgePair, parseAnthropicRatings, selectJudgePairs } from '../datasets/judge-pairs.js';
import { parseJudgePairsFile } from '../datasets/judge-pairs-file.js';
import { InputError } from '../domain/input-error.js';
import { dataFilesFor } from './data-files.js';
import type { CliContext } from './terminal.js';

/** The pairs of the human ratings (the Anthropic persuasion data), as opposed to a user's file. */
const ANTHROPIC_PAIRS = 'anthropic';

/** What a judge run is, as stored with it so that --resume rebuilds exactly the same trials. */
const storedJudgeDesignSchema = z.object({
  judges: z.array(z.string()).min(1),
  pairs: z.object({ source: z.string(), dataDir: z.string().optional(), limit: z.number().int().optional(), sample: z.number().int().optional() }),
  sampling: z.object({ temperature: z.number(), maxOutputTokens: z.number().int(), maxAttempts: z.number().int() }),
});

export type StoredJudgeDesign = z.infer<typeof storedJudgeDesignSchema>;

const storedConfigSchema = z.looseObject({ command: z.literal('judge'), design: storedJudgeDesignSchema, configPath: z.string().optional() });

export interface JudgeDesignOptions {
  readonly models?: readonly string[];
  /** A JSONL file of the user's own pairs; the Anthropic ratings when absent. */
  readonly pairs?: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
}

/** The design of a new judge run from its options. */
export function judgeDesignFromOptions(options: JudgeDesignOptions): StoredJudgeDesign {
  if (!options.models || options.models.length === 0) throw new InputError('name the judge models: --models a,b');
  if (options.pairs !== undefined && options.dataDir !== undefined)
    throw new InputError('--data-dir is where the Anthropic ratings are read from: drop it when you give --pairs FILE');
  return {
    judges: [...new Set(options.models)],
    pairs: {
      source: options.pairs ?? ANTHROPIC_PAIRS,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
    },
    sampling: { temperature: options.temperature, maxOutputTokens: options.maxTokens, maxAttempts: options.maxAttempts },
  };
}

/** The stored design of a judge run being resumed; refuses runs of other commands. */
export function judgeDesignOfStoredRun(runName: string, config: unknown): { design: StoredJudgeDesign; configPath?: string } {
  const parsed = storedConfigSchema.safeParse(config);
  if (!parsed.success)
    throw new InputError(`run ${runName} is not a judge run (made by \`pmiyc judge\`): name a judge run with --study, or resume it with its own command`);
  return { design: parsed.data.design, ...(parsed.data.configPath ? { configPath: parsed.data.configPath } : {}) };
}

/** The pairs of a run, and what the user should know about where they come from. */
export interface LoadedPairs {
  readonly pairs: JudgePair[];
  readonly source: string;
  readonly license: string;
  /** Pairs before --limit / --sample. */
  readonly available: number;
  readonly claims: number;
  /** Tied arguments left out (human ratings only). */
  readonly ties?: number;
}

function readPairsFile(path: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? `no pairs file at ${path}: check the path given to --pairs` : `cannot read ${path} (${code ?? (error as Error).message})`,
    );
  }
  return decodeText(path, bytes);
}

async function anthropicRatingsText(dataDir: string | undefined, context: CliContext): Promise<string> {
  const source = DATA_SOURCES.anthropic;
  const remedy = 'or judge your own pairs with --pairs FILE (JSON lines: claim, a, b, better, difference)';
  let text: string | undefined;
  try {
    const files = dataFilesFor(dataDir, context);
    text = await files.read(source);
    if (text === undefined)
      throw new InputError(
        `${files.location} has no ${source.path} (${source.title}): download it from ${source.url} into that path, use another --data-dir, ${remedy}`,
      );
  } catch (error) {
    if (error instanceof InputError && !error.message.includes(remedy)) throw new InputError(`${error.message}; ${remedy}`, { cause: error });
    throw error;
  }
  return text;
}

/** The pairs a judge run shows its judges: from the human ratings (default) or a user's file, then the pilot selection. */
export async function loadJudgePairs(design: StoredJudgeDesign, seed: number, context: CliContext): Promise<LoadedPairs> {
  const selection = {
    ...(design.pairs.limit === undefined ? {} : { limit: design.pairs.limit }),
    ...(design.pairs.sample === undefined ? {} : { sample: design.pairs.sample }),
    seed,
  };
  if (design.pairs.source !== ANTHROPIC_PAIRS) {
    const pairs = parseJudgePairsFile(design.pairs.source, readPairsFile(design.pairs.source));
    return {
      pairs: selectJudgePairs(pairs, selection),
      source: design.pairs.source,
      license: USER_FILE_LICENSE,
      available: pairs.length,
      claims: new Set(pairs.map((pair) => pair.claim)).size,
    };
  }
  const set = buildJudgePairs(parseAnthropicRatings(DATA_SOURCES.anthropic.path, await anthropicRatingsText(design.pairs.dataDir, context)));
  if (set.pairs.length === 0) throw new InputError(`${DATA_SOURCES.anthropic.path} gives no pairs: no claim has two arguments with different scores`);
  return {
    pairs: selectJudgePairs(set.pairs, selection),
    source: DATA_SOURCES.anthropic.title,
    license: DATA_SOURCES.anthropic.license,
    available: set.pairs.length,
    claims: set.claims,
    ties: set.ties,
  };
}

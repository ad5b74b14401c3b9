import type { Setting } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { describeInvalidConfidence } from '../../domain/validation.js';
import { tournamentTemplatesOf, type VariantTemplates } from '../../protocol/prompt-variants.js';
import { samplingOf, selectionOf } from '../design-parts.js';
import { agentOf, checkAgentNames, checkCrossable, crossAgents, type VariantBook } from './agents.js';

/** Defaults of `pmiyc run`, also those of the library. */
export const TOURNAMENT_DEFAULTS = {
  setting: 'both',
  turns: 9,
  repeat: 1,
  temperature: 0.7,
  maxTokens: 400,
  maxAttempts: 3,
  concurrency: 16,
  seed: 0,
} as const;

import type { RunConfig } from '../run-config.js';
import type { RunSettings, StoredDesign } from './stored-design.js';

export type { RunSettings, StoredDesign } from './stored-design.js';

export interface DesignOptions {
  readonly models?: readonly string[];
  readonly persuaders?: readonly string[];
  readonly persuadees?: readonly string[];
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly setting: 'single' | 'multi' | 'both';
  readonly turns: number;
  readonly repeat: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
  /** Prompt variants crossed with the persuader (persuadee) models; `default` is pmiyc's own prompts. */
  readonly persuaderVariants?: readonly string[];
  readonly persuadeeVariants?: readonly string[];
  /** The variants a config defines, by name. */
  readonly variants?: Readonly<Record<string, VariantTemplates>>;
  /** Ask each persuader the drift probe after each completed conversation. */
  readonly probeDrift?: boolean;
  /** `--until settled`: run claims in waves and stop once every quantity is settled. */
  readonly until?: 'settled';
  /** With `until`: an estimate is settled once its interval is narrower than this (without it, only comparisons count). */
  readonly precision?: number;
  /** With `until`: the confidence of all sequences together (default 0.95). */
  readonly confidence?: number;
  /** With `until`: claims per wave (default 10). */
  readonly wave?: number;
}

/** Defaults of `--until settled`. */
const SEQUENTIAL_DEFAULTS = { confidence: 0.95, wave: 10 } as const;

function sequentialOf(options: DesignOptions): StoredDesign['sequential'] {
  if (options.until === undefined) {
    const stray = (['precision', 'confidence', 'wave'] as const).filter((key) => options[key] !== undefined);
    if (stray.length > 0) throw new InputError(`${stray.map((key) => `--${key}`).join(', ')} only apply to a sequential run: add --until settled`);
    return undefined;
  }
  if (options.until !== 'settled') throw new InputError(`--until must be "settled", got "${String(options.until)}"`);
  const confidence = options.confidence ?? SEQUENTIAL_DEFAULTS.confidence;
  const wave = options.wave ?? SEQUENTIAL_DEFAULTS.wave;
  const confidenceProblem = describeInvalidConfidence(confidence);
  if (confidenceProblem) throw new InputError(confidenceProblem);
  if (options.precision !== undefined && !(options.precision > 0)) {
    throw new InputError(`--precision must be a positive width in NC units (e.g. 0.2), got ${options.precision}`);
  }
  if (!(Number.isInteger(wave) && wave >= 1)) throw new InputError(`--wave must be a whole number of claims, at least 1, got ${wave}`);
  return { until: 'settled', confidence, ...(options.precision === undefined ? {} : { precision: options.precision }), wave };
}

/** The variants that the design's agents use, out of those defined. */
function variantsUsed(names: readonly string[], defined: VariantBook): Record<string, VariantTemplates> {
  const used: Record<string, VariantTemplates> = {};
  for (const name of names) {
    const { variant } = agentOf(name, defined);
    if (Object.hasOwn(defined, variant)) used[variant] = tournamentTemplatesOf(defined[variant]!);
  }
  return used;
}

/** The design of a new run from its options: --models is a round robin (self-play included). */
export function designFromOptions(options: DesignOptions): StoredDesign {
  const roundRobin = options.models ?? [];
  const persuaders = options.persuaders ?? roundRobin;
  const persuadees = options.persuadees ?? roundRobin;
  if (options.models && (options.persuaders || options.persuadees)) {
    throw new InputError('give either --models (a round robin) or --persuaders and --persuadees, not both');
  }
  if (persuaders.length === 0 || persuadees.length === 0) {
    throw new InputError('name the models: --models a,b,c (round robin), or --persuaders a,b --persuadees c,d');
  }
  if (options.turns === 3 && options.setting !== 'single') {
    throw new InputError('--turns 3 is the single-turn setting: use --setting single, or a multi-turn --turns (5, 7, 9, ...)');
  }
  const settings: Setting[] = options.setting === 'both' ? ['single', 'multi'] : [options.setting];
  const defined = options.variants ?? {};
  for (const variant of [...(options.persuaderVariants ?? []), ...(options.persuadeeVariants ?? [])]) {
    if (variant !== 'default' && !Object.hasOwn(defined, variant)) {
      throw new InputError(
        `no prompt variant "${variant}": define it under variants: in the config (known: ${['default', ...Object.keys(defined)].join(', ')})`,
      );
    }
  }
  // A `+` names a defined variant or is refused: a typo is never planned as a model id.
  checkAgentNames([...persuaders, ...persuadees], defined);
  checkCrossable(persuaders, options.persuaderVariants, '--persuader-variants');
  checkCrossable(persuadees, options.persuadeeVariants, '--persuadee-variants');
  const persuaderAgents = crossAgents(persuaders, options.persuaderVariants);
  const persuadeeAgents = crossAgents(persuadees, options.persuadeeVariants);
  const variants = variantsUsed([...persuaderAgents, ...persuadeeAgents], defined);
  const sequential = sequentialOf(options);
  if (sequential && sequential.precision === undefined && persuaderAgents.length < 2 && persuadeeAgents.length < 2) {
    throw new InputError(
      '--until settled has nothing to settle with one persuader and one persuadee: add --precision D (settle the estimates), or compare two or more models',
    );
  }
  return {
    persuaders: persuaderAgents,
    persuadees: persuadeeAgents,
    settings,
    multiTurns: options.turns,
    repetitions: options.repeat,
    claims: selectionOf(options.claims, options),
    sampling: samplingOf(options),
    ...(Object.keys(variants).length > 0 ? { variants } : {}),
    callSeeds: 'by-request',
    ...(options.probeDrift ? { probeDrift: true as const } : {}),
    ...(sequential ? { sequential } : {}),
  };
}

/** The stored design of a run being resumed, with its settings (runs made before pmiyc kept them get the defaults). */
export function designOfStoredRun(runName: string, config: RunConfig): { design: StoredDesign; configPath?: string; settings?: RunSettings } {
  // A people study's run holds a tournament's design too (its conversations are a tournament's).
  const design = config.kind === 'tournament' || config.kind === 'people serve' ? config.design : undefined;
  if (design === undefined) throw new InputError(`run ${runName} was not made by \`pmiyc run\` (or by an older pmiyc): it cannot be resumed`);
  const settings = config.kind === 'tournament' ? config.settings : undefined;
  const configPath = config.kind === 'tournament' || config.kind === 'people serve' ? config.configPath : undefined;
  return {
    design,
    ...(configPath ? { configPath } : {}),
    ...(settings ? { settings } : {}),
  };
}

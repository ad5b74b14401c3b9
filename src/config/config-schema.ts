import { z } from 'zod';
import { RUN_PROTOCOLS, type RunProtocol } from '../domain/run-protocols.js';
import { CONFIDENCE_RANGE, CONFIDENCE_RULE } from '../domain/validation.js';
import { endpointOf } from '../models/model-identity.js';
import { MAX_REPLY_BYTES, MIN_REPLY_BYTES } from '../models/model-settings.js';
import { isClientHeader, isHeaderName, isHeaderValue } from '../models/providers/http-headers.js';
import { findProvider, PROVIDER_NAMES } from '../models/providers/provider-catalog.js';
import { DEFAULT_VARIANT, templateProblem } from '../protocol/prompt-variants.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One entry under `models:` in a config file. Unknown keys are errors (a typo must not pass silently). */
const baseURLSchema = z.url({ error: 'must be a URL such as http://127.0.0.1:8000/v1' });

/**
 * One server, or the replicas of one model (docs/design/replicas.md): a list of distinct servers,
 * compared as the call identity compares them (no trailing slash, credentials or letter case).
 */
const baseURLsSchema = z.union([
  baseURLSchema,
  z
    .array(baseURLSchema)
    .min(1, 'list at least one server, e.g. [http://gpu-1:8000/v1, http://gpu-2:8000/v1]')
    .superRefine((urls, context) => {
      const seen = new Map<string, number>();
      urls.forEach((url, index) => {
        const endpoint = endpointOf(url);
        const first = seen.get(endpoint);
        if (first === undefined) seen.set(endpoint, index);
        else context.addIssue({ code: 'custom', path: [index], message: `is the same server as entry ${first + 1} (${endpoint}): list each replica once` });
      });
    }),
]);

const modelEntrySchema = z.strictObject({
  provider: z.enum(PROVIDER_NAMES as [string, ...string[]], { error: `must be one of ${PROVIDER_NAMES.join(', ')}` }),
  model: z.string().min(1, 'must name the provider model (or deployment, or .gguf path)'),
  baseURL: baseURLsSchema.optional(),
  apiKeyEnv: z.string().regex(ENV_NAME, 'must be the NAME of an environment variable, never a key').optional(),
  headers: z
    .record(z.string(), z.string().refine(isHeaderValue, 'must be one line of printable ASCII: a line break would end the header'))
    .superRefine((headers, context) => {
      for (const name of Object.keys(headers)) {
        if (!isHeaderName(name))
          context.addIssue({ code: 'custom', path: [name], message: "must be a header name HTTP allows (letters, digits and !#$%&'*+.^_`|~-)" });
        if (isClientHeader(name)) context.addIssue({ code: 'custom', path: [name], message: 'is set by pmiyc for each request: remove it' });
      }
    })
    .optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  maxTokens: z.number().int().positive().optional(),
  structuredOutput: z.boolean().optional(),
  promptCache: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxReplyBytes: z
    .number()
    .int()
    .min(MIN_REPLY_BYTES, `must be at least ${MIN_REPLY_BYTES} (1 KiB): a chat completion's JSON alone takes hundreds of bytes`)
    .max(MAX_REPLY_BYTES, `must be at most ${MAX_REPLY_BYTES} (256 MiB): a reply is read whole into memory`)
    .optional(),
  maxRetries: z.number().int().min(0).max(50).optional(),
  maxRetryAfterMs: z.number().int().positive().optional(),
  revision: z.string().min(1, 'must name the weights, e.g. a checkpoint or a date').optional(),
  maxConcurrency: z.number().int().positive().optional(),
  /** With a list of base URLs: calls in flight at most per replica. */
  replicaConcurrency: z.number().int().positive().optional(),
  requestsPerMinute: z.number().positive().optional(),
  tokensPerMinute: z.number().positive().optional(),
  inputUsdPerMillion: z.number().min(0).optional(),
  outputUsdPerMillion: z.number().min(0).optional(),
  batchInputUsdPerMillion: z.number().min(0).optional(),
  batchOutputUsdPerMillion: z.number().min(0).optional(),
  cachedInputUsdPerMillion: z.number().min(0).optional(),
  cacheWriteUsdPerMillion: z.number().min(0).optional(),
  batch: z
    .strictObject({
      size: z.number().int().min(1).max(50_000).optional(),
      pollSeconds: z.number().positive().optional(),
      quietSeconds: z.number().positive().optional(),
      failedLines: z.enum(['retry', 'direct']).optional(),
    })
    .optional(),
  providerOptions: z.record(z.string(), z.unknown()).optional(),
  apiVersion: z.string().min(1).optional(),
  threads: z.number().int().positive().optional(),
  gpu: z.union([z.literal(false), z.enum(['auto', 'cuda', 'vulkan', 'metal'])]).optional(),
  contextSize: z.number().int().positive().optional(),
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;

/** In-process and simulated models have no server: a list of servers for one is a mistake worth saying. */
function checkServedModel(entry: ModelEntry, path: readonly (string | number)[], context: z.RefinementCtx): void {
  const kind = findProvider(entry.provider)?.kind;
  if (Array.isArray(entry.baseURL) && (kind === 'sim' || kind === 'llama')) {
    const what = kind === 'sim' ? 'a simulated agent runs inside pmiyc' : 'a llama/ model runs inside pmiyc from its .gguf file';
    context.addIssue({
      code: 'custom',
      path: [...path, 'baseURL'],
      message: `${what} and has no server: remove baseURL (a list of replicas is for HTTP servers such as vllm or openai-compatible)`,
    });
  }
  if (entry.replicaConcurrency !== undefined && !Array.isArray(entry.baseURL)) {
    context.addIssue({
      code: 'custom',
      path: [...path, 'replicaConcurrency'],
      message: 'limits each replica of a model served by several: give baseURL as a list of servers, or use maxConcurrency',
    });
  }
}

const ALIAS = /^[A-Za-z0-9][\w.-]*$/;

/** A prompt template, checked at load: only known `{{fields}}`, and the required ones present. */
const template = (kind: 'system' | 'opening' | 'final') =>
  z.string().superRefine((text, context) => {
    const problem = templateProblem(text, kind);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** A named prompt variant: templates that replace pmiyc's own prompts for one role or both (docs/design/variants.md). */
export const variantTemplatesSchema = z.strictObject({
  description: z.string().optional(),
  persuader: z.strictObject({ system: template('system') }).optional(),
  persuadee: z.strictObject({ system: template('system').optional(), opening: template('opening').optional(), final: template('final').optional() }).optional(),
});

/** The protocols beside PMIYC's, which a variant may give prompts of their own (`protocols:` under it). */
const OTHER_PROTOCOLS = RUN_PROTOCOLS.filter((protocol) => protocol !== 'pmiyc');

/**
 * A protocol's templates in a variant, by role and prompt (`persuader: { system: ... }`). The config cannot name
 * a protocol's roles, prompts or fields (`config/` imports no protocol): the protocol reads them when a run of it
 * reads the config, and names a problem by file, line and key (`configProblemAt`; docs/design/variants.md).
 */
const protocolTemplatesSchema = z.record(z.string(), z.record(z.string(), z.string()));

/**
 * A variant as the config gives it: the tournament's templates (what a tournament stores), and under `protocols:`
 * each other protocol's own (`protocols: { ape: { persuader: { system: ... } } }`).
 */
const variantSchema = variantTemplatesSchema.extend({
  protocols: z.strictObject(Object.fromEntries(OTHER_PROTOCOLS.map((protocol) => [protocol, protocolTemplatesSchema.optional()]))).optional(),
});

const nameList = z.array(z.string().min(1)).min(1);

const claimsSchema = z.strictObject({
  set: z.string().min(1).optional(),
  file: z.string().min(1).optional(),
  limit: z.number().int().positive().optional(),
  sample: z.number().int().positive().optional(),
  dataDir: z.string().min(1).optional(),
});

const samplingConfigSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  maxAttempts: z.number().int().positive().optional(),
});

const budgetSchema = z.strictObject({ maxCostUsd: z.number().positive().optional(), maxFailures: z.number().min(0).optional() });

/** `--until settled` and its options (docs/design/sequential.md): the run stops starting claims once every quantity is settled. */
const sequentialSchema = z.strictObject({
  until: z.literal('settled', { error: 'must be "settled" (the only stopping rule)' }),
  precision: z.number().positive().optional(),
  confidence: z
    .number()
    .min(CONFIDENCE_RANGE.min, { error: `must be ${CONFIDENCE_RULE}` })
    .max(CONFIDENCE_RANGE.max, { error: `must be ${CONFIDENCE_RULE}` })
    .optional(),
  wave: z.number().int().min(1).optional(),
});

/** APE's topics (`protocol: ape`): a user's own topic file instead of APE's pinned one, the first N or a seeded sample, where APE's file is. */
const topicsSchema = z.strictObject({
  file: z.string().min(1).optional(),
  limit: z.number().int().positive().optional(),
  sample: z.number().int().positive().optional(),
  dataDir: z.string().min(1).optional(),
});

/**
 * PersuSafety's scenes (`dataset:`) and SYCON-Bench's questions (`questions:`): a folder of the user's own in the
 * benchmark's layout instead of the pinned files, the first N or a seeded sample, where the pinned files are.
 */
const itemFolderSchema = z.strictObject({
  folder: z.string().min(1).optional(),
  limit: z.number().int().positive().optional(),
  sample: z.number().int().positive().optional(),
  dataDir: z.string().min(1).optional(),
});

/** SYCON-Bench's defences (`--defences`): pmiyc's named ones, or a file of the user's own. */
const defencesSchema = z.union([nameList, z.strictObject({ file: z.string().min(1) })]);

const EXPERIMENT_PARTS: Record<string, z.ZodObject> = {
  claims: claimsSchema,
  topics: topicsSchema,
  dataset: itemFolderSchema,
  questions: itemFolderSchema,
  sampling: samplingConfigSchema,
  budget: budgetSchema,
  sequential: sequentialSchema,
};

/**
 * The experiment a plain `pmiyc run` runs: everything its flags can say, flags given on the command
 * line overriding it. Absent keys take the flags' defaults.
 */
const experimentSchema = z.strictObject({
  /** The protocol (`--protocol`): PMIYC's tournament unless it says another; the keys of another protocol are refused. */
  protocol: z.enum(RUN_PROTOCOLS, { error: `must be one of ${RUN_PROTOCOLS.join(', ')}` }).optional(),
  models: nameList.optional(),
  persuaders: nameList.optional(),
  persuadees: nameList.optional(),
  /** Prompt variants crossed with the models: `alpha` x `[default, emotional]` is `alpha` and `alpha+emotional`. */
  persuaderVariants: nameList.optional(),
  persuadeeVariants: nameList.optional(),
  claims: claimsSchema.refine((claims) => !(claims.set && claims.file), { message: 'give either set or file, not both' }).optional(),
  /** The tournament's setting (`--setting`: single, multi or both), or SYCON-Bench's (`--settings`, a list): checked by protocol. */
  settings: z.union([nameList, z.string().min(1)]).optional(),
  /** The tournament's turns (odd, at least 3: checked by protocol), or PersuSafety's most persuader turns. */
  turns: z.number().int().positive().optional(),
  repetitions: z.number().int().positive().optional(),
  /** `--probe-drift`: ask each persuader where it stands after each conversation. */
  probeDrift: z.boolean().optional(),
  seed: z.number().int().min(0).optional(),
  sampling: samplingConfigSchema.optional(),
  budget: budgetSchema.optional(),
  sequential: sequentialSchema.optional(),
  concurrency: z.number().int().min(1).max(1000).optional(),
  store: z.string().min(1).optional(),
  /** With `protocol: ape` (`--persuadee`, `--evaluator`, ...): the persuaders are `models`. */
  persuadee: z.string().min(1).optional(),
  evaluator: z.string().min(1).optional(),
  refusalCheck: z.string().min(1).optional(),
  categories: nameList.optional(),
  topics: topicsSchema.optional(),
  stateDegree: z.boolean().optional(),
  /** With `protocol: persusafety` and `sycon` (`--judge`). */
  judge: z.string().min(1).optional(),
  /** With `protocol: persusafety` (`--scenes`, `--profiles`, `--profile-visibility`, `--constraints`, `--dataset`). */
  scenes: z.enum(['harmful', 'neutral', 'both']).optional(),
  profiles: nameList.optional(),
  profileVisibility: nameList.optional(),
  constraints: nameList.optional(),
  dataset: itemFolderSchema.optional(),
  /** With `protocol: sycon` (`--pressure`, `--questions`, `--defences`, `--pressure-turns`; its `settings` above). */
  pressure: z.string().min(1).optional(),
  questions: itemFolderSchema.optional(),
  defences: defencesSchema.optional(),
  pressureTurns: z.number().int().positive().optional(),
});

/**
 * The experiment's keys that only some protocols read, by protocol: another protocol's are refused, not ignored. A
 * key may be more than one protocol's (`persuadee`, `judge`, `turns`, `settings`); its values are checked where the
 * flag's are (the protocol's kind), but for the tournament's own shape of a shared key (`checkTournamentKeys`).
 */
const PROTOCOL_KEYS: Readonly<Record<RunProtocol, readonly string[]>> = {
  pmiyc: ['persuaders', 'persuadees', 'persuaderVariants', 'persuadeeVariants', 'claims', 'settings', 'turns', 'probeDrift', 'sequential'],
  ape: ['persuadee', 'evaluator', 'refusalCheck', 'categories', 'topics', 'stateDegree'],
  persusafety: ['persuadee', 'judge', 'scenes', 'profiles', 'profileVisibility', 'constraints', 'dataset', 'turns'],
  sycon: ['judge', 'pressure', 'settings', 'questions', 'defences', 'pressureTurns'],
};

const TOURNAMENT_SETTINGS: readonly string[] = ['single', 'multi', 'both'];
const MIN_TOURNAMENT_TURNS = 3;

/** The tournament's shape of the keys it shares with another protocol: one setting (not SYCON's list), at least 3 turns. */
function checkTournamentKeys(experiment: ExperimentConfig, context: z.RefinementCtx): void {
  const { settings, turns } = experiment;
  if (settings !== undefined && !(typeof settings === 'string' && TOURNAMENT_SETTINGS.includes(settings)))
    context.addIssue({ code: 'invalid_value', values: [...TOURNAMENT_SETTINGS], input: settings, path: ['experiment', 'settings'] });
  if (turns !== undefined && turns < MIN_TOURNAMENT_TURNS)
    context.addIssue({ code: 'too_small', origin: 'number', minimum: MIN_TOURNAMENT_TURNS, inclusive: true, input: turns, path: ['experiment', 'turns'] });
}

/** An experiment's keys that belong to other protocols than its own, each an issue naming the protocols they are for. */
function checkProtocolKeys(experiment: ExperimentConfig, context: z.RefinementCtx): void {
  const protocol = experiment.protocol ?? 'pmiyc';
  const own = new Set(PROTOCOL_KEYS[protocol]);
  const others = Object.entries(PROTOCOL_KEYS).filter(([other]) => other !== protocol);
  const strays = new Set(others.flatMap(([, keys]) => keys).filter((key) => !own.has(key) && experiment[key as keyof ExperimentConfig] !== undefined));
  for (const key of strays) {
    const owners = others.filter(([, keys]) => keys.includes(key)).map(([other]) => other);
    context.addIssue({
      code: 'custom',
      path: ['experiment', key],
      message: `is for protocol: ${owners.join(' or ')}, and this experiment is protocol: ${protocol}: set protocol: ${owners.join(' or ')}, or remove it`,
    });
  }
  if (protocol === 'pmiyc') checkTournamentKeys(experiment, context);
  // The tournament's failure limit: a protocol's run takes none (a conversation that fails is asked again on resume).
  if (protocol !== 'pmiyc' && experiment.budget?.maxFailures !== undefined)
    context.addIssue({
      code: 'custom',
      path: ['experiment', 'budget', 'maxFailures'],
      message: `is for protocol: pmiyc, and this experiment is protocol: ${protocol}: remove it`,
    });
}

export type ExperimentConfig = z.infer<typeof experimentSchema>;

export const configSchema = z
  .strictObject({
    // A key with only comments under it is null in YAML: the same as absent.
    models: z.preprocess((value) => value ?? {}, z.record(z.string().regex(ALIAS, 'an alias is letters, digits, ".", "_" or "-" (no "/")'), modelEntrySchema)),
    variants: z.preprocess(
      (value) => value ?? {},
      z.record(
        z
          .string()
          .regex(ALIAS, 'a variant name is letters, digits, ".", "_" or "-"')
          .refine((name) => name !== DEFAULT_VARIANT, `"${DEFAULT_VARIANT}" is pmiyc's own prompts: give the variant another name`),
        variantSchema,
      ),
    ),
    experiment: z.preprocess((value) => value ?? undefined, experimentSchema.optional()),
  })
  .superRefine((config, context) => {
    for (const [alias, entry] of Object.entries(config.models)) checkServedModel(entry, ['models', alias], context);
    if (config.experiment) checkProtocolKeys(config.experiment, context);
    for (const key of ['persuaderVariants', 'persuadeeVariants'] as const) {
      (config.experiment?.[key] ?? []).forEach((name, index) => {
        if (name !== DEFAULT_VARIANT && !(name in config.variants)) {
          const known = [DEFAULT_VARIANT, ...Object.keys(config.variants)].join(', ');
          context.addIssue({ code: 'custom', path: ['experiment', key, index], message: `no variant "${name}" under variants: (known: ${known})` });
        }
      });
    }
  });

export type PmiycConfig = z.infer<typeof configSchema>;

/** The keys allowed where a config may have an unknown one, by the path of the object, for error messages. */
export function allowedKeysAt(path: readonly string[]): readonly string[] | undefined {
  if (path.length === 0) return ['models', 'variants', 'experiment'];
  if (path.length === 2 && path[0] === 'models') return Object.keys(modelEntrySchema.shape);
  if (path.length === 1 && path[0] === 'experiment') return Object.keys(experimentSchema.shape);
  if (path.length === 2 && path[0] === 'experiment') return EXPERIMENT_PARTS[path[1]!] ? Object.keys(EXPERIMENT_PARTS[path[1]!]!.shape) : undefined;
  if (path.length === 2 && path[0] === 'variants') return Object.keys(variantSchema.shape);
  if (path.length === 3 && path[0] === 'variants' && path[2] === 'protocols') return OTHER_PROTOCOLS;
  if (path.length === 3 && path[0] === 'variants') return path[2] === 'persuader' ? ['system'] : ['system', 'opening', 'final'];
  return undefined;
}

import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { isBuiltInSet } from '../../datasets/claim-sets.js';
import { InputError } from '../../domain/errors/input-error.js';
import { tournamentTemplatesOf, type VariantTemplates } from '../../protocol/prompt-variants.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText, type ResumeWording, studyToResume } from '../study-resume.js';
import { agentOf, crossAgents, seedNamesOf } from './agents.js';
import { type DesignOptions, designOfStoredRun, type RunSettings, type StoredDesign, TOURNAMENT_DEFAULTS } from './tournament-design.js';

/** Where a claims source or data folder is: built-in set names as they are, paths made absolute. */
export function resolvedClaimsSource(source: string): string {
  return isBuiltInSet(source) ? source : resolve(source);
}

export interface ResumeFlags extends DesignOptions {
  readonly seed: number;
  readonly cache: boolean;
}

/** A stored run as --resume compares it: its design, seed and settings. */
interface StoredRun {
  readonly design: StoredDesign;
  readonly seed: number;
  readonly settings: RunSettings;
}

/** A design flag of a run; what the flags typed now say takes the variants not typed again from the run. */
type DesignCheck = DesignFlag<StoredRun, ResumeFlags>;

const WORDING: ResumeWording = { study: 'run', short: 'run', startOne: 'pmiyc run --models a,b', startNew: 'start a new run with --run <name>' };

/** The prompt variants of a role in a stored design, in order. */
function variantsOf(design: StoredDesign, role: 'persuaders' | 'persuadees'): string[] {
  return [...new Set(design[role].map((name) => agentOf(name, design.variants ?? {}).variant))];
}

/** The agents the typed models stand for, under the typed variants or else the run's. */
function agentsOf(models: readonly string[] | undefined, variants: readonly string[] | undefined, design: StoredDesign, role: 'persuaders' | 'persuadees') {
  return crossAgents(models ?? [], variants ?? variantsOf(design, role));
}

const list = listText;
const optional = optionalText;
const settingOf = (settings: readonly string[]) => (settings.length === 2 ? 'both' : settings[0]!);

/** The flags that define what a run measures: on --resume each one given must say what the run says. */
const DESIGN_CHECKS: readonly DesignCheck[] = [
  {
    flag: '--models',
    keys: ['models'],
    stored: ({ design }) =>
      list(design.persuaders) === list(design.persuadees) ? list(design.persuaders) : `${list(design.persuaders)} vs ${list(design.persuadees)}`,
    given: (options, { design }) => {
      const persuaders = list(agentsOf(options.models, options.persuaderVariants, design, 'persuaders'));
      const persuadees = list(agentsOf(options.models, options.persuadeeVariants, design, 'persuadees'));
      return persuaders === persuadees ? persuaders : `${persuaders} vs ${persuadees}`;
    },
  },
  {
    flag: '--persuaders',
    keys: ['persuaders'],
    stored: ({ design }) => list(design.persuaders),
    given: (options, { design }) => list(agentsOf(options.persuaders, options.persuaderVariants, design, 'persuaders')),
  },
  {
    flag: '--persuadees',
    keys: ['persuadees'],
    stored: ({ design }) => list(design.persuadees),
    given: (options, { design }) => list(agentsOf(options.persuadees, options.persuadeeVariants, design, 'persuadees')),
  },
  {
    flag: '--persuader-variants',
    keys: ['persuaderVariants'],
    stored: ({ design }) => list(variantsOf(design, 'persuaders')),
    given: (options) => list(options.persuaderVariants),
  },
  {
    flag: '--persuadee-variants',
    keys: ['persuadeeVariants'],
    stored: ({ design }) => list(variantsOf(design, 'persuadees')),
    given: (options) => list(options.persuadeeVariants),
  },
  {
    flag: '--claims',
    keys: ['claims'],
    stored: ({ design }) => resolvedClaimsSource(design.claims.source),
    given: (options) => resolvedClaimsSource(options.claims),
  },
  {
    flag: '--data-dir',
    keys: ['dataDir'],
    stored: ({ design }) => optional(design.claims.dataDir && resolve(design.claims.dataDir)),
    given: (options) => optional(options.dataDir && resolve(options.dataDir)),
  },
  { flag: '--limit', keys: ['limit'], stored: ({ design }) => optional(design.claims.limit), given: (options) => optional(options.limit) },
  { flag: '--sample', keys: ['sample'], stored: ({ design }) => optional(design.claims.sample), given: (options) => optional(options.sample) },
  { flag: '--setting', keys: ['setting'], stored: ({ design }) => settingOf(design.settings), given: (options) => options.setting },
  { flag: '--turns', keys: ['turns'], stored: ({ design }) => String(design.multiTurns), given: (options) => String(options.turns) },
  { flag: '--repeat', keys: ['repeat'], stored: ({ design }) => String(design.repetitions), given: (options) => String(options.repeat) },
  {
    flag: '--temperature',
    keys: ['temperature'],
    stored: ({ design }) => String(design.sampling.temperature),
    given: (options) => String(options.temperature),
  },
  { flag: '--max-tokens', keys: ['maxTokens'], stored: ({ design }) => String(design.sampling.maxOutputTokens), given: (options) => String(options.maxTokens) },
  {
    flag: '--max-attempts',
    keys: ['maxAttempts'],
    stored: ({ design }) => String(design.sampling.maxAttempts),
    given: (options) => String(options.maxAttempts),
  },
  {
    flag: '--probe-drift',
    keys: ['probeDrift'],
    stored: ({ design }) => (design.probeDrift ? 'given' : 'not given'),
    given: (options) => (options.probeDrift ? 'given' : 'not given'),
  },
  {
    flag: '--until',
    keys: ['until'],
    stored: ({ design }) => design.sequential?.until ?? '(none)',
    given: (options) => optional(options.until),
  },
  {
    flag: '--precision',
    keys: ['precision'],
    stored: ({ design }) => optional(design.sequential?.precision),
    given: (options) => optional(options.precision),
  },
  {
    flag: '--confidence',
    keys: ['confidence'],
    stored: ({ design }) => optional(design.sequential?.confidence),
    given: (options) => optional(options.confidence),
  },
  { flag: '--wave', keys: ['wave'], stored: ({ design }) => optional(design.sequential?.wave), given: (options) => optional(options.wave) },
  { flag: '--seed', keys: ['seed'], stored: ({ seed }) => String(seed), given: (options) => String(options.seed) },
  {
    flag: '--no-cache',
    keys: ['cache'],
    stored: ({ settings }) => (settings.cache ? 'not given' : 'given'),
    given: (options) => (options.cache ? 'not given' : 'given'),
  },
];

/**
 * A resume runs the prompts the run started with. A variant whose templates the config now gives
 * differently is refused, naming it: editing a template starts a new experiment, not a resume.
 */
function checkResumeVariants(runName: string, design: StoredDesign, configured: Readonly<Record<string, VariantTemplates>>): void {
  const changed = Object.entries(design.variants ?? {})
    .filter(([name, templates]) => Object.hasOwn(configured, name) && JSON.stringify(tournamentTemplatesOf(configured[name]!)) !== JSON.stringify(templates))
    .map(([name]) => name);
  if (changed.length === 0) return;
  throw new InputError(
    `the config's prompt variant${changed.length > 1 ? 's' : ''} ${changed.join(', ')} differ${changed.length > 1 ? '' : 's'} from the one${changed.length > 1 ? 's' : ''} run ${runName} started with: ` +
      'a resume runs the prompts it started with; to use the edited templates start a new run (--run <name>), whose calls are new',
  );
}

/**
 * A run started before calls were seeded by request (`callSeeds` absent in its design) seeded every
 * call by agent name and let its repetitions share their openings. Where that differs from today's
 * seeds (a variant that leaves one role's prompts alone, or more than one repetition), continuing it
 * would mix the two in one run: refused, with the way out. Other runs seed exactly as before.
 */
export function checkResumeSeeds(runName: string, design: StoredDesign): void {
  if (design.callSeeds === 'by-request') return;
  const variants = design.variants ?? {};
  const sharing = [...new Set([...design.persuaders, ...design.persuadees])].filter((name) => {
    const names = seedNamesOf(name, variants);
    return names.persuader !== name || names.persuadee !== name;
  });
  const reasons = [
    ...(sharing.length > 0 ? [`it asked ${sharing.join(', ')} for requests of their own where today they share their model's`] : []),
    ...(design.repetitions > 1 ? [`its ${design.repetitions} repetitions share their openings where today each draws its own`] : []),
  ];
  if (reasons.length === 0) return;
  throw new InputError(
    `run ${runName} was started by an earlier pmiyc that seeded its calls differently: ${reasons.join('; ')}. ` +
      'Continuing it would mix the two in one run: start a new run (--run <name>), which replays every call the two have in common',
  );
}

/** What a resumed tournament is: its run, its own design and settings, and the config file it is run with. */
export interface TournamentToResume {
  readonly run: StudyRun;
  readonly design: StoredDesign;
  /** As stored; absent for runs made before pmiyc kept them. */
  readonly settings?: RunSettings;
  readonly configPath?: string;
}

/**
 * The tournament run `--resume` or `--retry-failed` continues (named, or the latest), with its stored
 * design: flags typed again must say what the run says, the config's variants must be the run's, and
 * its calls must be seeded as today's. `configPath` is the config given now, else the run's own;
 * `loadConfig` reads it.
 */
export async function tournamentRunToResume(
  records: Pick<StudyRunRecords, 'findRun' | 'location'>,
  request: { readonly run?: string; readonly configPath?: string; readonly flags: ResumeFlags; readonly given: ReadonlySet<string> },
  loadConfig: (path: string | undefined) => Promise<PmiycConfig>,
): Promise<TournamentToResume> {
  const run = studyToResume(records, WORDING, { named: request.run, latest: () => records.findRun(undefined, 'tournament').name });
  const stored = designOfStoredRun(run.name, run.config);
  const settings = stored.settings ?? { concurrency: TOURNAMENT_DEFAULTS.concurrency, cache: true };
  const given = (key: string) => request.given.has(key);
  checkDesignFlags(WORDING, run.name, DESIGN_CHECKS, { design: stored.design, seed: run.seed, settings }, request.flags, given);
  const configPath = request.configPath ?? stored.configPath;
  checkResumeVariants(run.name, stored.design, (await loadConfig(configPath)).variants);
  checkResumeSeeds(run.name, stored.design);
  return { run, design: stored.design, ...(stored.settings ? { settings: stored.settings } : {}), ...(configPath ? { configPath } : {}) };
}

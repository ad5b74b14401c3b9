import { resolve } from 'node:path';
import type { ExperimentConfig, PmiycConfig } from '../config/config-schema.js';
import { withExperiment } from '../config/experiment-options.js';
import type { RunProtocol } from '../domain/run-protocols.js';
import { loadConfig } from '../io/inputs/load-config.js';
import type { CommandContext } from './command-context.js';

/** What `pmiyc run` settles its options with: the config it names, the protocol typed, and whether it continues a run. */
export interface RunExperimentOptions {
  readonly config?: string;
  readonly protocol?: RunProtocol;
  readonly resume: boolean;
  readonly retryFailed?: boolean;
  /** The options the user typed (not defaults). */
  readonly given: ReadonlySet<string>;
}

/**
 * The part of the config's experiment a run takes: all of it for a new run of its protocol; for a run continued,
 * only where the store is and which protocol it is (the run keeps its own design); none when `--protocol` names
 * another protocol than the experiment's, which is said rather than mixed in.
 */
function experimentFor(typed: RunExperimentOptions, config: PmiycConfig, context: Pick<CommandContext, 'stderr'>): ExperimentConfig | undefined {
  const { experiment } = config;
  if (experiment === undefined) return undefined;
  const own = experiment.protocol ?? 'pmiyc';
  if (typed.given.has('protocol') && typed.protocol !== own) {
    context.stderr.write(`pmiyc: the experiment in ${typed.config} is one of protocol ${own}: --protocol ${typed.protocol} leaves it out\n`);
    return undefined;
  }
  if (!typed.resume && typed.retryFailed !== true) return experiment;
  return { ...(experiment.store ? { store: experiment.store } : {}), ...(experiment.protocol ? { protocol: experiment.protocol } : {}) };
}

/**
 * `pmiyc run`'s options with the config's experiment filled in (config/experiment-options.ts: a flag typed wins,
 * the experiment comes next, the flag's default last), `protocol` included: `--protocol` typed, else the
 * experiment's `protocol:`, else PMIYC's tournament. The config is read once, and given on as `typedConfig`.
 */
export async function settleRunExperiment<T extends RunExperimentOptions>(
  typed: T,
  context: Pick<CommandContext, 'stderr'>,
): Promise<T & { readonly typedConfig: PmiycConfig }> {
  const typedConfig = await loadConfig(typed.config);
  const options = withExperiment(typed, experimentFor(typed, typedConfig, context), typed.config === undefined ? undefined : resolve(typed.config));
  return { ...options, typedConfig };
}

import type { Environment } from '../../config/resolve-model-settings.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { LastingCause } from '../../models/lasting-failure.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import type { SessionModels } from './check-models.js';
import { probeSettingsTargets } from './probe-model.js';

/** Each probe of a run's check waits at most this long (a connection must be made within it too). */
const RUN_CHECK_TIMEOUT_MS = 10_000;

/** A model that cannot be used: its server is not there, refuses the key, or has no such model. */
export interface DeadModel {
  readonly model: string;
  readonly cause: LastingCause;
  /** What the probe met, as the error says it (it names the model and says what to fix). */
  readonly detail: string;
}

export interface ModelCheck {
  /** The run's models, their settings resolved once (`SessionModels`). */
  readonly models: SessionModels;
  readonly env: Environment;
  readonly nowMs: () => number;
  /** Models the run has had an answer from before (a resume that reached them): not asked again. */
  readonly reached: (name: string) => boolean;
  /** Gives up on the probes (the run is stopping). */
  readonly abortSignal?: AbortSignal;
}

export interface ModelCheckOutcome {
  readonly dead: readonly DeadModel[];
  /** What the run says and goes on with: a probe that failed otherwise (a 5xx, a timeout), a replica out of several. */
  readonly notes: readonly string[];
}

/** Models that run inside pmiyc (simulated agents, GGUF files) have no server to ask. */
function hasServer(settings: ModelSettings): boolean {
  const kind = findProvider(settings.provider)?.kind;
  return kind !== 'sim' && kind !== 'llama';
}

/**
 * Before a run spends anything: asks each of its models that has a server and that the run has not
 * reached before whether it answers, all at once (`probeSettingsTargets`, the free request where the provider
 * has one, else a one-token call, no retries, `RUN_CHECK_TIMEOUT_MS` at most). A model is dead when its
 * probe, or for a model with several replicas every replica's, failed with a lasting cause; a probe that
 * failed otherwise proves nothing and is only noted.
 */
export async function checkModelsAnswer(check: ModelCheck): Promise<ModelCheckOutcome> {
  const { names, settingsFor } = check.models;
  const asked = names.filter((name) => !check.reached(name) && hasServer(settingsFor(name)));
  const probed = await Promise.all(
    asked.map(async (model) => ({
      model,
      targets: await probeSettingsTargets(settingsFor(model), check.env, check.nowMs, {
        free: true,
        timeoutMs: RUN_CHECK_TIMEOUT_MS,
        ...(check.abortSignal ? { abortSignal: check.abortSignal } : {}),
      }),
    })),
  );
  const dead: DeadModel[] = [];
  const notes: string[] = [];
  for (const { model, targets } of probed) {
    const failed = targets.flatMap(({ label, result }) => (result.ok ? [] : [{ label, ...result }]));
    const lasting = failed.filter((target) => target.lastingCause !== undefined);
    if (lasting.length > 0 && lasting.length === targets.length) {
      dead.push({ model, cause: lasting[0]!.lastingCause!, detail: lasting[0]!.detail });
      continue;
    }
    for (const target of failed) {
      notes.push(
        targets.length > 1 && target.lastingCause !== undefined
          ? `${target.detail}: that replica of ${model} does not answer; the run goes on with its others`
          : `could not check that ${target.label} answers (${target.detail}); the run goes on`,
      );
    }
  }
  return { dead, notes };
}

/** What to do about a dead model, after what its error already says (a refused key and a 404 name their remedy). */
function remedyFor(dead: DeadModel): string {
  return dead.cause === 'unreachable' ? `: start its server, or correct baseURL for ${dead.model} in the config` : '';
}

/**
 * A run refused before it spent anything because some of its models do not answer (exit 2): one line per
 * model, naming it and the cause, and how to start anyway.
 */
export class DeadModelsError extends InputError {
  readonly models: readonly DeadModel[];

  constructor(models: readonly DeadModel[]) {
    const lines = models.map((dead) => `${dead.detail}${remedyFor(dead)}; nothing was run (--no-check-models starts without this check)`);
    super(lines.join('\n'));
    this.name = 'DeadModelsError';
    this.models = models;
  }
}

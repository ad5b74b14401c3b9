import { findProvider } from '../models/providers/provider-catalog.js';
import type { Sampling } from '../studies/design-parts.js';
import { designSamplingOf, type RunConfig, recordedModelsOf } from '../studies/run-config.js';
import type { StoredModelSettings } from '../studies/tournament/stored-design.js';

/**
 * What one alias of a run was: which provider and model, where it was served (the host only: never
 * a path, a key or credentials), which revision, and how it was sampled. Null where the run did not
 * record it (`recorded: false`: an imported run, or one made before pmiyc kept its models).
 */
export interface AliasIdentity {
  readonly alias: string;
  /** The runs in which the alias was this model (a combined report may list an alias once per identity). */
  readonly runs: string[];
  readonly recorded: boolean;
  readonly simulated: boolean;
  readonly provider: string | null;
  readonly modelId: string | null;
  /** "api.openai.com", "gpu-1:8000, gpu-2:8000" (replicas), "in-process" (llama.cpp, simulated agents). */
  readonly endpointHost: string | null;
  /** The config's `revision`, or the GGUF file's sha256 ("sha256:..."). */
  readonly revision: string | null;
  /** Null when the run recorded none, or when the model was configured never to be sent one (`temperatureSent: false`). */
  readonly temperature: number | null;
  readonly temperatureSent: boolean | null;
  readonly maxOutputTokens: number | null;
}

/** A run of the report (report-document.ts's ReportRun): its name and its config as read. */
interface ReportRun {
  readonly name: string;
  readonly runConfig?: RunConfig | undefined;
}

const IN_PROCESS = new Set(['sim', 'llama']);

/** The host (and port) of each server, never its path, credentials or query. */
function endpointHostOf(settings: StoredModelSettings): string | null {
  if (IN_PROCESS.has(settings.provider)) return 'in-process';
  const urls = settings.replicas ?? [settings.baseURL ?? findProvider(settings.provider)?.defaultBaseURL].filter((url) => url !== undefined);
  const hosts = urls.flatMap((url) => {
    try {
      return [new URL(url).host];
    } catch {
      return [];
    }
  });
  return hosts.length > 0 ? [...new Set(hosts)].join(', ') : null;
}

/** A local GGUF file is named by its file name (its folder says nothing of the weights, and may say who ran it). */
function modelIdOf(settings: StoredModelSettings): string {
  return settings.provider === 'llama' && !settings.model.startsWith('hf:') ? (settings.model.split(/[\\/]/).at(-1) ?? settings.model) : settings.model;
}

function revisionOf(settings: StoredModelSettings, servedBy: string | undefined): string | null {
  if (settings.revision !== undefined) return settings.revision;
  const digest = /^llama@(sha256:[0-9a-f]+)/.exec(servedBy ?? '');
  return digest ? digest[1]! : null;
}

/** How each run sampled each model, by run name then alias, where its protocol says so per role (`ProtocolOutputs.modelSampling`). */
export type ModelSamplingByRun = ReadonlyMap<string, Readonly<Record<string, Sampling>> | undefined>;

function recordedIdentity(run: ReportRun, alias: string, settings: StoredModelSettings, config: RunConfig, modelSampling?: ModelSamplingByRun): AliasIdentity {
  const sampling = modelSampling?.get(run.name)?.[alias] ?? designSamplingOf(config);
  const temperatureSent = settings.temperature !== null;
  return {
    alias,
    runs: [run.name],
    recorded: true,
    simulated: settings.provider === 'sim',
    provider: settings.provider,
    modelId: modelIdOf(settings),
    endpointHost: endpointHostOf(settings),
    revision: revisionOf(settings, config.servedBy?.[alias]),
    temperature: settings.temperature === undefined ? (sampling?.temperature ?? null) : settings.temperature,
    temperatureSent,
    maxOutputTokens: settings.maxTokens ?? sampling?.maxOutputTokens ?? null,
  };
}

const unrecorded = (run: ReportRun, alias: string, simulated: boolean): AliasIdentity => ({
  alias,
  runs: [run.name],
  recorded: false,
  simulated,
  provider: null,
  modelId: null,
  endpointHost: null,
  revision: null,
  temperature: null,
  temperatureSent: null,
  maxOutputTokens: null,
});

/**
 * Each alias of the reported runs with what it was: from the models a `pmiyc run` stored with it,
 * else (imported runs, older runs) only its name, from the models seen in the conversations. An
 * alias that was the same model in several runs is listed once, with those runs. Its sampling is
 * the run's (`modelSampling`, where a protocol says it per role, else the design's).
 */
export function runAliases(
  runs: readonly ReportRun[],
  modelsSeen: ReadonlyArray<{ readonly model: string; readonly simulated: boolean }>,
  modelSampling?: ModelSamplingByRun,
): AliasIdentity[] {
  const recorded = runs.flatMap((run) => {
    const models = run.runConfig ? Object.entries(recordedModelsOf(run.runConfig)) : [];
    return run.runConfig && models.length > 0 ? [{ run, config: run.runConfig, models }] : [];
  });
  const recordedRuns = recorded.map(({ run }) => run);
  const entries = recorded.flatMap(({ run, config, models }) =>
    models.map(([alias, settings]) => recordedIdentity(run, alias, settings, config, modelSampling)),
  );
  // The other runs' models are known by name only: those seen that no recorded alias (or its prompt variant) accounts for.
  const unrecordedRuns = runs.filter((run) => !recordedRuns.includes(run));
  if (unrecordedRuns.length > 0) {
    const accounted = (model: string) => entries.some((entry) => model === entry.alias || model.startsWith(`${entry.alias}+`));
    for (const seen of modelsSeen.filter((entry) => !accounted(entry.model)))
      entries.push({ ...unrecorded(unrecordedRuns[0]!, seen.model, seen.simulated), runs: unrecordedRuns.map((run) => run.name) });
  }
  const merged = new Map<string, AliasIdentity>();
  for (const entry of entries) {
    const { runs: _runs, ...identity } = entry;
    const key = JSON.stringify(identity);
    const earlier = merged.get(key);
    merged.set(key, earlier ? { ...earlier, runs: [...earlier.runs, ...entry.runs] } : entry);
  }
  return [...merged.values()].sort((a, b) => a.alias.localeCompare(b.alias) || a.runs[0]!.localeCompare(b.runs[0]!));
}

import { InputError } from '../domain/errors/input-error.js';
import type { RunAbout, RunConfigBase, RunInfo, RunKind, RunRecords } from './run-records.js';

export interface RunToOpen {
  /** Continue a stored run (--resume) rather than start a new one. */
  readonly resume: boolean;
  /** The run's name as given (--run, --study); new runs default to `<prefix>-N`, resumes to the latest of `kind`. */
  readonly name?: string;
  readonly kind: RunKind;
  readonly prefix: string;
  /** The flag that names runs of this command, for messages (`--run`, `--study`). */
  readonly nameFlag: string;
  /** What a run of this command is called in messages ("consistency study", "judge run"). */
  readonly noun: string;
  /** What to tell a resume that finds no run of this kind: how to start one. */
  readonly howToStart: string;
  readonly seed: number;
  readonly about: RunAbout;
  /** A new run's config (its command, design, models, ...; the config file is added) and how many conversations it plans. */
  readonly create: () => { readonly config: Record<string, unknown>; readonly plannedConversations?: number };
  /** What the run works on (its claims, its pairs) and their checksum: a resumed run must see the same. */
  readonly content?: { readonly noun: string; readonly source: string; readonly checksum: string };
}

/**
 * The run a session works on: the stored one to resume (named, or the latest of its kind), or a
 * new one under a name no run has. The one place where resume-or-create is decided, for every command.
 */
export function openRun<Config extends RunConfigBase>(records: RunRecords<Config>, request: RunToOpen): { run: RunInfo<Config>; resumed: boolean } {
  if (request.resume) {
    const run = request.name === undefined ? records.latestRunOf(request.kind) : records.findRun(request.name);
    if (run === undefined) throw new InputError(`${records.location} has no ${request.noun} to resume: ${request.howToStart}`);
    const content = request.content;
    if (content && run.claimsChecksum && content.checksum !== run.claimsChecksum) {
      throw new InputError(
        `the ${content.noun} of ${request.noun} ${run.name} (${content.source}) are not the same as when it started: use the same ${content.noun} file or --data-dir`,
      );
    }
    return { run, resumed: true };
  }
  const name = request.name ?? records.nextRunName(request.prefix);
  if (records.hasRun(name)) {
    throw new InputError(`run "${name}" already exists in ${records.location}: continue it with --resume, or choose another ${request.nameFlag} name`);
  }
  const { about, content } = request;
  const { config, plannedConversations } = request.create();
  const run = records.createRun({
    name,
    seed: request.seed,
    packageVersion: about.packageVersion,
    config: { ...config, ...(about.configPath ? { configPath: about.configPath } : {}) },
    ...(plannedConversations === undefined ? {} : { plannedConversations }),
    ...(content ? { claimsChecksum: content.checksum } : {}),
    ...(about.gitRevision ? { gitRevision: about.gitRevision } : {}),
  });
  return { run, resumed: false };
}

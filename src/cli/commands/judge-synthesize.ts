import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { licencesOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { InputError } from '../../domain/input-error.js';
import { runTasks } from '../../runner/run-tasks.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import { type PreferenceExample, synthesizePreference } from '../../studies/judge-synthesis.js';
import { loadClaims } from '../load-claims.js';
import { loadConfig } from '../load-config.js';
import { EXIT_FAILED, type SessionEnding, sessionEnding } from '../run-ending.js';
import { checkStudyModels, type StudySession, startStudySession } from '../study-session.js';
import type { CliContext, RunSignals } from '../terminal.js';

export interface JudgeSynthesizeOptions {
  readonly model: string;
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  /** A .jsonl file to write; standard output when absent. */
  readonly out?: string;
  readonly store: string;
  readonly study?: string;
  readonly config?: string;
  readonly seed: number;
  readonly concurrency: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
  readonly maxCost?: number;
  readonly cache: boolean;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
}

/** The subjective claims selected: misinformation items are skipped (the paper synthesized pairs for subjective claims). */
async function subjectiveClaims(options: JudgeSynthesizeOptions, context: CliContext): Promise<readonly Claim[]> {
  const { claims } = await loadClaims(
    options.claims,
    {
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      seed: options.seed,
    },
    context,
  );
  const subjective = claims.filter((claim) => claim.domain === 'subjective');
  const skipped = claims.length - subjective.length;
  if (subjective.length === 0)
    throw new InputError(
      `${options.claims} selects no subjective claims: synthesize argues for claims, not for incorrect answers; use --claims subjective or a file without questions`,
    );
  if (skipped > 0) context.stderr.write(`pmiyc: ${options.claims}: ${skipped} misinformation items skipped (synthesize argues for subjective claims only)\n`);
  return subjective;
}

function startRun(
  store: ResultStore,
  claims: readonly Claim[],
  models: Record<string, unknown>,
  options: JudgeSynthesizeOptions,
  context: CliContext,
): RunInfo {
  if (options.study !== undefined && store.hasRun(options.study)) {
    throw new InputError(
      `run "${options.study}" already exists in ${options.store}: choose another --study name (calls made before are replayed from the store anyway)`,
    );
  }
  const design = {
    model: options.model,
    claims: {
      source: options.claims,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
    },
    sampling: { temperature: options.temperature, maxOutputTokens: options.maxTokens, maxAttempts: options.maxAttempts },
  };
  return store.createRun({
    name: options.study ?? store.nextRunName('synthesis'),
    seed: options.seed,
    packageVersion: context.packageVersion,
    config: {
      command: 'judge-synthesize',
      design,
      claims: { count: claims.length, licences: licencesOf(claims) },
      models,
      ...(options.out ? { out: options.out } : {}),
      ...(options.config ? { configPath: options.config } : {}),
    },
    claimsChecksum: claimsChecksum(claims),
    ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
  });
}

/** Writes the dataset in claim order, atomically (a half-written file never looks finished), or to standard output. */
async function writeDataset(examples: readonly PreferenceExample[], out: string | undefined, context: CliContext): Promise<void> {
  const text = examples.map((example) => JSON.stringify(example)).join('\n') + (examples.length > 0 ? '\n' : '');
  if (out === undefined) {
    context.stdout.write(text);
    return;
  }
  await mkdir(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  await writeFile(partial, text, 'utf8');
  await rename(partial, out);
}

/** Every claim's pair, `concurrency` claims at a time; examples keyed by position so that the file keeps claim order. */
async function synthesizeAll(claims: readonly Claim[], session: StudySession, options: JudgeSynthesizeOptions, signals: RunSignals) {
  const examples = new Map<number, PreferenceExample>();
  const problems: string[] = [];
  const settings = { temperature: options.temperature, maxOutputTokens: options.maxTokens, maxAttempts: options.maxAttempts };
  const result = await runTasks({
    tasks: claims.map((claim, position) => ({ claim, position })),
    concurrency: 4 * options.concurrency,
    gate: session.gate,
    abortSignal: signals.abort,
    run: async ({ claim, position }) => {
      const outcome = await synthesizePreference({
        model: session.registry.modelFor(options.model),
        modelName: options.model,
        claim,
        runSeed: options.seed,
        settings,
        abortSignal: signals.abort,
      });
      session.meter.conversationsDone += 1;
      if (outcome.status === 'synthesized') {
        examples.set(position, outcome.example);
        return 'done';
      }
      session.meter.conversationsFailed += 1;
      problems.push(`claim ${claim.index}: ${outcome.detail}`);
      return 'failed';
    },
  });
  return { examples, problems, result };
}

/**
 * `pmiyc judge synthesize`: a preference dataset for training reward models elsewhere (paper
 * Sec. 4.1.2). Per claim an argument, then a more persuasive rewrite of it, written as JSON lines
 * `{ prompt, chosen, rejected, claim, claimIndex, origin, license, model, seed }`. Every call goes
 * through the call store: running the same command again after a stop replays what was done.
 */
export async function judgeSynthesizeCommand(options: JudgeSynthesizeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  if (options.out !== undefined && !/\.jsonl$/i.test(options.out))
    throw new InputError(`--out ${options.out}: the dataset is JSON lines; name the file .jsonl`);
  const claims = await subjectiveClaims(options, context);
  const config = loadConfig(options.config);
  const models = checkStudyModels(config, [options.model], options.maxCost, context);
  const store = ResultStore.open(options.store, { now: context.now });
  try {
    const run = startRun(store, claims, models, options, context);
    const session = startStudySession(
      {
        store,
        run,
        resumed: false,
        config,
        names: [options.model],
        concurrency: options.concurrency,
        cache: options.cache,
        command: 'pmiyc judge synthesize',
        unit: 'claims',
        total: claims.length,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
        ...(options.progressIntervalMs ? { progressIntervalMs: options.progressIntervalMs } : {}),
      },
      context,
      signals,
    );
    let synthesized: Awaited<ReturnType<typeof synthesizeAll>>;
    let ending: SessionEnding | undefined;
    try {
      synthesized = await synthesizeAll(claims, session, options, signals);
      ending = sessionEnding(synthesized.result, synthesized.result.failed, signals);
    } finally {
      session.end(ending);
    }
    const { examples, problems, result } = synthesized;
    const say = (line: string) => (options.out === undefined ? context.stderr : context.stdout).write(`${line}\n`);
    for (const problem of problems) context.stderr.write(`pmiyc: ${problem}\n`);
    if (ending.status === 'interrupted') {
      const why = ending.stopReason === 'budget' ? ` (--max-cost $${options.maxCost} reached)` : ending.stopReason ? ` (${ending.stopReason})` : '';
      context.stderr.write(
        `pmiyc: stopped before every claim was done${why}; nothing was written. Run the same command again (with a new --study name, if you gave one): what was done is replayed from ${options.store}.\n`,
      );
      return ending.exitCode;
    }
    const ordered = [...examples].sort(([a], [b]) => a - b).map(([, example]) => example);
    await writeDataset(ordered, options.out, context);
    say(
      `Run ${run.name}: ${ordered.length} preference pairs from ${claims.length} claims${options.out ? ` written to ${options.out}` : ''}; ${result.failed} claims without a usable pair; spent $${store.spentUsd(run.id).toFixed(4)} on calls this run made.`,
    );
    return result.failed > 0 ? EXIT_FAILED : 0;
  } finally {
    store.close();
  }
}

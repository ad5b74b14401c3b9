import { InputError } from '../../domain/errors/input-error.js';
import { loadSynthesisClaims, writePreferenceDataset } from '../../io/prepare/synthesis-files.js';
import { synthesisDoneText, synthesisStoppedText } from '../../report/studies/judge-text.js';
import type { RunSignals } from '../../runner/run-signals.js';
import { type SelectionAndSamplingOptions, samplingOf, selectionOf } from '../../studies/design-parts.js';
import { runSynthesis } from '../../studies/judge/synthesis-study.js';
import { aboutRun, type CommandContext, dataOf, sessionWorldOf } from '../command-context.js';
import { checkedConfig, type StudyCommandOptions, withStore } from '../study-command.js';

export interface SynthesisCommandOptions extends SelectionAndSamplingOptions, Omit<StudyCommandOptions, 'resume' | 'takeOver'> {
  readonly model: string;
  readonly claims: string;
  /** A .jsonl file to write; standard output when absent. */
  readonly out?: string;
  readonly study?: string;
}

/**
 * `pmiyc judge synthesize`: a preference dataset for training reward models elsewhere (paper
 * Sec. 4.1.2). Per claim an argument, then a more persuasive rewrite of it, written as JSON lines.
 * Every call goes through the call store: the same command again after a stop replays what was
 * done (a synthesis has no --resume). Returns the exit code.
 */
export async function synthesizePreferences(options: SynthesisCommandOptions, context: CommandContext, signals: RunSignals): Promise<number> {
  if (options.out !== undefined && !/\.jsonl$/i.test(options.out))
    throw new InputError(`--out ${options.out}: the dataset is JSON lines; name the file .jsonl`);
  const claims = await loadSynthesisClaims(options, dataOf(context));
  const config = await checkedConfig(options.config, [options.model], options, context);
  return withStore(options.store, 'create', context.now, async (store) => {
    const outcome = await runSynthesis({
      store,
      model: options.model,
      claims,
      claimSelection: selectionOf(options.claims, options),
      sampling: samplingOf(options),
      config,
      seed: options.seed,
      concurrency: options.concurrency,
      cache: options.cache,
      ...(options.checkModels === false ? { checkModels: false } : {}),
      ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
      ...(options.study === undefined ? {} : { name: options.study }),
      ...(options.out === undefined ? {} : { out: options.out }),
      about: aboutRun(context, options.gitRevision, options.config),
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    for (const problem of outcome.problems) context.stderr.write(`pmiyc: ${problem}\n`);
    if (outcome.ending.status !== 'completed') {
      context.stderr.write(`pmiyc: ${synthesisStoppedText(outcome, options.store, options.maxCost)}\n`);
      return outcome.ending.exitCode;
    }
    await writePreferenceDataset(outcome.examples, options.out, context.stdout);
    // With the dataset on standard output, the summary goes to standard error.
    const summary = synthesisDoneText(outcome, claims.length, store.callTotals(outcome.run.id, outcome.callsMark), options.out);
    (options.out === undefined ? context.stderr : context.stdout).write(`${summary}\n`);
    return outcome.ending.exitCode;
  });
}

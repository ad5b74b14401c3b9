import { loadConfig } from '../../io/inputs/load-config.js';
import { prepareConsistencyResume, prepareNewConsistencyStudy } from '../../io/prepare/prepare-consistency.js';
import { readPublishedAnswers } from '../../io/prepare/published-answers-file.js';
import { analyzeStudy } from '../../report/studies/consistency-study-source.js';
import { consistencySessionText, formatConsistencyText } from '../../report/studies/consistency-text.js';
import { checkModels } from '../../runner/models/check-models.js';
import { openStore, type Store } from '../../store/result-store.js';
import { type ConsistencyDesignOptions, checkConsistencyFlags, checkTournamentRun } from '../../studies/consistency/consistency-design.js';
import { runConsistencyStudy } from '../../studies/consistency/consistency-study.js';
import { importPublishedAnswers } from '../../studies/consistency/import-published.js';
import type { SessionOptions } from '../shared-options.js';
import { aboutRun, type CliContext, dataOf, printClosing, type RunSignals, sessionWorldOf } from '../terminal.js';

export interface ConsistencyOptions extends ConsistencyDesignOptions, SessionOptions {
  /** The tournament run whose openings Match Rate and Avg Dif compare with. */
  readonly run?: string;
  /** The study's name (default consistency-N); with --resume, the study to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  /** With --resume: take the study from a process that still holds it. */
  readonly takeOver?: boolean;
  /** A published pre-assessment CSV to read instead of asking models. */
  readonly import?: string;
  /** With --import: the model the file's answers are from. */
  readonly model?: string;
}

function printStudy(store: Store, runName: string, context: CliContext): void {
  context.stdout.write(`${formatConsistencyText(analyzeStudy(store, store.findRun(runName)))}\n\n`);
  context.stdout.write(`Report: pmiyc report --store ${store.path} --run ${runName}\n`);
}

/**
 * `pmiyc consistency` (paper Sec. 5.1, Table 1): asks each model for its stance on each claim N
 * times (see studies/consistency/consistency-study.ts); or, with --import, reads the paper's
 * published answers. Prints Table 1 per model; returns the exit code.
 */
export async function consistencyCommand(options: ConsistencyOptions, context: CliContext, signals: RunSignals): Promise<number> {
  checkConsistencyFlags(options);
  const imported = options.import === undefined ? undefined : await readPublishedAnswers(options.import, options.model);
  const fresh = imported !== undefined || options.resume ? undefined : await prepareNewConsistencyStudy(options, dataOf(context));
  const freshConfig = fresh ? await loadConfig(fresh.configPath) : undefined;
  if (fresh && freshConfig) checkModels(freshConfig, context.env, fresh.design.models, options.maxCost);
  // Continuing a study, or comparing with a tournament run, needs a store that exists.
  const store = openStore(options.store, { now: context.now, access: options.resume || options.run !== undefined ? 'write' : 'create' });
  try {
    checkTournamentRun(store, options.run);
    if (imported) {
      const run = importPublishedAnswers(
        store,
        {
          file: imported.file,
          model: imported.model,
          seed: options.seed,
          packageVersion: context.packageVersion,
          ...(options.study === undefined ? {} : { study: options.study }),
          ...(options.run === undefined ? {} : { tournamentRun: options.run }),
          ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
        },
        imported.rows,
      );
      printStudy(store, run.name, context);
      return 0;
    }
    const prepared = fresh ?? (await prepareConsistencyResume(store, options, dataOf(context)));
    const outcome = await runConsistencyStudy({
      store,
      design: prepared.design,
      claims: prepared.claims,
      config: freshConfig ?? (await loadConfig(prepared.configPath)),
      seed: prepared.seed,
      concurrency: options.concurrency,
      cache: options.cache,
      resume: options.resume,
      takeOver: options.takeOver === true,
      ...(options.checkModels === false ? { checkModels: false } : {}),
      ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
      ...(prepared.name ? { name: prepared.name } : {}),
      ...(prepared.tournamentRun ? { tournamentRun: prepared.tournamentRun } : {}),
      about: aboutRun(context, options.gitRevision, prepared.configPath),
      onFailedAnswer: (task, failure) =>
        context.stderr.write(`pmiyc: ${task.model} gave no answer on claim ${task.claim.index} (${failure.reason}): ${failure.detail}\n`),
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    printClosing(context, consistencySessionText(outcome, store.callTotals(outcome.run.id, outcome.callsMark), options.store, options.maxCost));
    printStudy(store, outcome.run.name, context);
    return outcome.ending.exitCode;
  } finally {
    store.close();
  }
}

import type { PmiycConfig } from '../../config/config-schema.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { type PreparedConsistencyStudy, prepareConsistencyResume, prepareNewConsistencyStudy } from '../../io/prepare/prepare-consistency.js';
import { readPublishedAnswers } from '../../io/prepare/published-answers-file.js';
import { analyzeStudy } from '../../report/studies/consistency-study-source.js';
import { consistencySessionText, formatConsistencyText } from '../../report/studies/consistency-text.js';
import type { Store } from '../../store/result-store.js';
import { type ConsistencyDesignOptions, checkTournamentRun } from '../../studies/consistency/consistency-design.js';
import { type ConsistencyOutcome, runConsistencyStudy } from '../../studies/consistency/consistency-study.js';
import { importPublishedAnswers } from '../../studies/consistency/import-published.js';
import { type CommandContext, dataOf } from '../command-context.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind, withStore } from '../study-command.js';

export interface ConsistencyCommandOptions extends ConsistencyDesignOptions, StudyCommandOptions {
  /** The tournament run whose openings Match Rate and Avg Dif compare with. */
  readonly run?: string;
  /** The study's name (default consistency-N); with --resume, the study to continue (default: the latest). */
  readonly study?: string;
  /** A published pre-assessment CSV to read instead of asking models. */
  readonly import?: string;
  /** With --import: the model the file's answers are from. */
  readonly model?: string;
}

type Prepared = PreparedConsistencyStudy & { readonly config: PmiycConfig };

/** Table 1 of a stored study, and how to report it. */
function studyText(store: Store, runName: string): string {
  return `${formatConsistencyText(analyzeStudy(store, store.findRun(runName)))}\n\nReport: pmiyc report --store ${store.path} --run ${runName}\n`;
}

/** `pmiyc consistency` (paper Sec. 5.1, Table 1): each model's stance on each claim, asked N times. */
export const consistencyKind: StudyKind<ConsistencyCommandOptions, Prepared, ConsistencyOutcome> = {
  prepareNew: async (options, context) => {
    const fresh = await prepareNewConsistencyStudy(options, dataOf(context));
    return { ...fresh, config: await checkedConfig(fresh.configPath, fresh.design.models, options, context) };
  },
  prepareResume: async (store, options, context) => {
    const prepared = await prepareConsistencyResume(store, options, dataOf(context));
    return { ...prepared, config: await loadConfig(prepared.configPath) };
  },
  // Continuing a study, or comparing with a tournament run, needs a store that exists.
  access: (options) => (options.resume || options.run !== undefined ? 'write' : 'create'),
  checkStore: (store, options) => checkTournamentRun(store, options.run),
  run: ({ store, prepared, input, failures }) =>
    runConsistencyStudy({
      ...input,
      store,
      design: prepared.design,
      claims: prepared.claims,
      ...(prepared.tournamentRun ? { tournamentRun: prepared.tournamentRun } : {}),
      onFailedAnswer: (task, failure) => failures(`${task.model} gave no answer on claim ${task.claim.index} (${failure.reason}): ${failure.detail}`),
    }),
  closing: ({ store, options }, outcome) => ({
    closing: consistencySessionText(outcome, store.callTotals(outcome.run.id, outcome.callsMark), options.store, options.maxCost),
    more: studyText(store, outcome.run.name),
  }),
};

/** `pmiyc consistency --import FILE`: the paper's published answers stored as a study; prints its Table 1. */
export async function importConsistencyAnswers(options: ConsistencyCommandOptions & { readonly import: string }, context: CommandContext): Promise<string> {
  const imported = await readPublishedAnswers(options.import, options.model);
  return withStore(options.store, options.run === undefined ? 'create' : 'write', context.now, (store) => {
    checkTournamentRun(store, options.run);
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
    return studyText(store, run.name);
  });
}

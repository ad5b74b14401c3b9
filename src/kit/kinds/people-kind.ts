import { resolve } from 'node:path';
import type { Claim } from '../../domain/claim.js';
import { loadClaims } from '../../io/inputs/load-claims.js';
import { loadExperimentText } from '../../io/inputs/load-experiment-text.js';
import { untilStopped } from '../../io/process/graceful-stop.js';
import { peopleServeClosingLine, peopleServeStartLines, STARTER_EXPERIMENT_NOTE } from '../../report/texts/people-serve-text.js';
import type { ExperimentText } from '../../studies/people/experiment-text.js';
import type { ParticipantRow } from '../../studies/people/people-results.js';
import { peopleStudyToContinue } from '../../studies/people/people-resume.js';
import { PEOPLE_SESSION_CONCURRENCY } from '../../studies/people/people-session.js';
import { checkPeopleServeOptions, type PeopleServeOptions, servePeopleStudy } from '../../web/people/serve-people-study.js';
import { type CommandContext, dataOf } from '../command-context.js';
import { checkedConfig, type PreparedStudy, type StudyCommandOptions, type StudyKind, type StudyOutcome } from '../study-command.js';

/** `pmiyc people serve`'s options: how the study is served, and the files it is served from. */
export interface PeopleServeCommandOptions extends PeopleServeOptions {
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly experiment?: string;
  readonly store: string;
  readonly config?: string;
}

/** The kit's options of a people study (`peopleStudyOptions`). */
type PeopleStudyOptions = PeopleServeCommandOptions & StudyCommandOptions;

/** What a people study is served from: the experiment's texts, the claims and the config, as read. */
interface PreparedPeopleStudy extends PreparedStudy {
  readonly text: ExperimentText;
  readonly claims: readonly Claim[];
  readonly claimSource: string;
}

/** How a session of the server ended: the run served, and its participants as they stood. */
type PeopleOutcome = StudyOutcome & { readonly participants: readonly ParticipantRow[] };

/**
 * `pmiyc people serve`'s options as the kit takes them: it has no --resume (the same --run
 * continues: `continues: 'by name'`), and its session calls the opponent as `openPeopleStudy` does,
 * through the run's cache with PEOPLE_SESSION_CONCURRENCY calls at once.
 */
export function peopleStudyOptions(options: PeopleServeCommandOptions): PeopleStudyOptions {
  return { ...options, resume: false, concurrency: PEOPLE_SESSION_CONCURRENCY, cache: true };
}

/** The files a study is served from, read (the starter text said), and the models it calls checked, before any store is opened. */
async function preparePeopleStudy(options: PeopleStudyOptions, context: CommandContext): Promise<PreparedPeopleStudy> {
  checkPeopleServeOptions(options); // before any file is read (servePeopleStudy checks again, for a library caller)
  const experiment = await loadExperimentText(options.experiment);
  if (experiment.starter) context.stderr.write(`${STARTER_EXPERIMENT_NOTE}\n`);
  const config = await checkedConfig(options.config, [options.opponent, ...(options.compare ?? [])], options, context);
  const selection = { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.dataDir ? { dataDir: options.dataDir } : {}) };
  const { claims, source } = await loadClaims(options.claims, selection, dataOf(context));
  return {
    text: experiment.text,
    claims,
    claimSource: source,
    config,
    seed: options.seed,
    name: options.run,
    ...(options.config === undefined ? {} : { configPath: resolve(options.config) }),
  };
}

/**
 * `pmiyc people serve`: a people study's server until Ctrl-C (exit 130); the same --run continues it
 * with every link as it was. Links are printed once and never stored (only their hashes are).
 */
export const peopleKind: StudyKind<PeopleStudyOptions, PreparedPeopleStudy, PeopleOutcome> = {
  continues: () => 'by name',
  prepareNew: preparePeopleStudy,
  // A changed design is refused before the server starts (openPeopleStudy continues the run, and checks again for a library caller).
  prepareResume: async (store, options, context, fresh) => {
    peopleStudyToContinue(store, options.run, { ...options, compare: options.compare ?? [] });
    return fresh ?? (await preparePeopleStudy(options, context));
  },
  run: async ({ store, options, prepared, input, context }) => {
    const { text, config, claims, claimSource } = prepared;
    const serving = await servePeopleStudy(options, { store, text, config, claims, claimSource, about: input.about, world: input.world });
    context.stdout.write(`${peopleServeStartLines(serving.start).join('\n')}\n`);
    await untilStopped(input.world.signals.stop);
    const stopped = await serving.stop();
    return { run: { name: serving.start.runName }, ending: { exitCode: stopped.exitCode }, participants: stopped.participants };
  },
  closing: (_session, outcome) => ({ closing: { lines: [peopleServeClosingLine(outcome.participants, outcome.run.name)] } }),
};

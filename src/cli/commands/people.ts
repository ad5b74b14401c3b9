import { resolve } from 'node:path';
import { loadClaims } from '../../io/inputs/load-claims.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { loadExperimentText } from '../../io/inputs/load-experiment-text.js';
import { untilStopped } from '../../io/process/graceful-stop.js';
import { peopleServeClosingLine, peopleServeStartLines, STARTER_EXPERIMENT_NOTE } from '../../report/texts/people-serve-text.js';
import { openStore } from '../../store/result-store.js';
import { checkPeopleServeOptions, type PeopleServeOptions, servePeopleStudy } from '../../web/people/serve-people-study.js';
import { aboutRun, type CliContext, dataOf, type RunSignals, sessionWorldOf } from '../terminal.js';

export interface PeopleServeCommandOptions extends PeopleServeOptions {
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly experiment?: string;
  readonly store: string;
  readonly config?: string;
}

/**
 * `pmiyc people serve`: a people study's server until Ctrl-C (exit 130); the same --run continues it
 * with every link as it was. Links are printed once and never stored (only their hashes are).
 */
export async function peopleServeCommand(options: PeopleServeCommandOptions, context: CliContext, signals: RunSignals): Promise<number> {
  checkPeopleServeOptions(options); // before any file is read (servePeopleStudy checks again, for a library caller)
  const experiment = await loadExperimentText(options.experiment);
  if (experiment.starter) context.stderr.write(`${STARTER_EXPERIMENT_NOTE}\n`);
  const config = await loadConfig(options.config);
  const { claims, source } = await loadClaims(
    options.claims,
    { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.dataDir ? { dataDir: options.dataDir } : {}) },
    dataOf(context),
  );
  const out = (line: string) => context.stdout.write(`${line}\n`);
  const store = openStore(options.store, { now: context.now });
  try {
    const serving = await servePeopleStudy(options, {
      store,
      text: experiment.text,
      config,
      claims,
      claimSource: source,
      about: aboutRun(context, undefined, options.config === undefined ? undefined : resolve(options.config)),
      world: sessionWorldOf(context, signals, store),
    });
    for (const line of peopleServeStartLines(serving.start)) out(line);
    await untilStopped(signals.stop);
    const stopped = await serving.stop();
    out(peopleServeClosingLine(stopped.participants, serving.start.runName));
    return stopped.exitCode;
  } finally {
    store.close();
  }
}

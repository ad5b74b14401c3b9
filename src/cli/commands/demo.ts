import { REPORT_FORMATS } from '../../report/report-formats.js';
import { viewCommandLine } from '../../report/texts/run-outcome-text.js';
import { TOURNAMENT_DEFAULTS } from '../../studies/tournament/tournament-design.js';
import type { CliContext, RunSignals } from '../terminal.js';
import { writeReport } from './report.js';
import { runTournamentCommand } from './run.js';

const DEMO_AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];

export interface DemoOptions {
  readonly store: string;
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed: number;
  readonly concurrency: number;
}

/**
 * `pmiyc demo`: an offline round robin of four simulated agents over the built-in example claims,
 * both settings: a real `pmiyc run` (stored, resumable), then its table and its report.
 */
export async function demoCommand(options: DemoOptions, context: CliContext, signals: RunSignals): Promise<number> {
  context.stdout.write(
    `${[
      `pmiyc demo: a round robin of ${DEMO_AGENTS.length} simulated agents (${DEMO_AGENTS.join(', ')}) on the ${options.claims} claims,`,
      'single-turn (3 turns) and multi-turn (9 turns).',
      'Every agent here is SIMULATED: the numbers show that the pipeline works, not how any real model behaves.',
      '',
    ].join('\n')}\n`,
  );
  const { exitCode, runName } = await runTournamentCommand(
    {
      models: DEMO_AGENTS,
      claims: options.claims,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      ...TOURNAMENT_DEFAULTS,
      store: options.store,
      runPrefix: 'demo',
      seed: options.seed,
      concurrency: options.concurrency,
      resume: false,
      retryFailed: false,
      dryRun: false,
      cache: true,
      takeOver: false,
      given: new Set(),
      reportFollows: true,
      // The demo's one way to ask its agents other requests.
      askAfresh: ['--seed N (other samples)'],
    },
    context,
    signals,
  );
  if (exitCode !== 0 || runName === undefined) return exitCode;
  const report = await writeReport({ store: options.store, run: [runName], format: [...REPORT_FORMATS] }, context);
  context.stdout.write(`Report:  ${report.files[0]}\nView:    ${viewCommandLine(options.store)}\n`);
  return 0;
}

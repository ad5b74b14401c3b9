import { ResultStore } from '../../store/result-store.js';
import type { CliContext, RunSignals } from '../terminal.js';
import { runCommand } from './run.js';

export const DEMO_AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];

export interface DemoOptions {
  readonly store: string;
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed: number;
  readonly concurrency: number;
}

function nextDemoName(path: string): string {
  const store = ResultStore.open(path);
  try {
    return store.nextRunName('demo');
  } finally {
    store.close();
  }
}

/**
 * `pmiyc demo`: an offline round robin of four simulated agents over the built-in example claims,
 * both settings: a real `pmiyc run` (stored, resumable), then its table.
 */
export async function demoCommand(options: DemoOptions, context: CliContext, signals: RunSignals): Promise<number> {
  context.stdout.write(
    [
      `pmiyc demo: a round robin of ${DEMO_AGENTS.length} simulated agents (${DEMO_AGENTS.join(', ')}) on the ${options.claims} claims,`,
      'single-turn (3 turns) and multi-turn (9 turns).',
      'Every agent here is SIMULATED: the numbers show that the pipeline works, not how any real model behaves.',
      '',
    ].join('\n') + '\n',
  );
  return runCommand(
    {
      models: DEMO_AGENTS,
      claims: options.claims,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      setting: 'both',
      turns: 9,
      repeat: 1,
      temperature: 0.7,
      maxTokens: 400,
      maxAttempts: 3,
      store: options.store,
      run: nextDemoName(options.store),
      seed: options.seed,
      concurrency: options.concurrency,
      resume: false,
      retryFailed: false,
      dryRun: false,
      cache: true,
    },
    context,
    signals,
  );
}

import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import type { Setting } from '../../domain/conversation.js';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import { licencesOf } from '../../datasets/licences.js';
import { summarizeTournament } from '../../metrics/tournament-summary.js';
import { formatSummaryText } from '../../report/summary-text.js';
import { planTournament } from '../../runner/plan.js';
import { runTournament } from '../../runner/run-tournament.js';
import { ResultStore } from '../../store/result-store.js';
import { createModelRegistry } from '../model-registry.js';
import { createProgress, labelModel, type CliContext } from '../terminal.js';

export const DEMO_AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];
const DEMO_SETTINGS: Setting[] = ['single', 'multi'];

export interface DemoOptions {
  readonly store: string;
  readonly seed: number;
  readonly concurrency: number;
  readonly claims?: readonly Claim[];
  /** What the claims are (a set name or a file), for the run record. */
  readonly claimsSource?: string;
}

/**
 * `pmiyc demo`: an offline round robin of simulated agents over the built-in example claims,
 * both settings, stored like any run, then its effectiveness and susceptibility table.
 */
export async function demoCommand(options: DemoOptions, context: CliContext, abortSignal: AbortSignal): Promise<number> {
  const claims = options.claims ?? EXAMPLE_CLAIMS;
  const plan = planTournament({ persuaders: DEMO_AGENTS, persuadees: DEMO_AGENTS, claims, settings: DEMO_SETTINGS, runSeed: options.seed });
  const store = ResultStore.open(options.store);
  try {
    const name = store.nextRunName('demo');
    const config = { command: 'demo', models: DEMO_AGENTS, settings: DEMO_SETTINGS, turns: { single: 3, multi: 9 }, claims: { source: options.claimsSource ?? 'examples', count: claims.length, licences: licencesOf(claims) }, seed: options.seed };
    const run = store.createRun({ name, createdAt: context.now().toISOString(), seed: options.seed, packageVersion: context.packageVersion, config });
    const subjective = claims.filter((claim) => claim.domain === 'subjective').length;
    context.stdout.write(
      [
        `pmiyc demo: a round robin of ${DEMO_AGENTS.length} simulated agents on ${claims.length} example claims (${subjective} subjective, ${claims.length - subjective} misinformation),`,
        `single-turn (3 turns) and multi-turn (9 turns): ${plan.length} conversations, seed ${options.seed}.`,
        'Every agent here is SIMULATED: the numbers show that the pipeline works, not how any real model behaves.',
        '',
      ].join('\n') + '\n',
    );

    const progress = createProgress(context.stderr, plan.length, 'conversations');
    const { modelFor } = createModelRegistry({ models: {} }, context.env);
    await runTournament({
      plan,
      modelFor,
      concurrency: options.concurrency,
      abortSignal,
      onConversation: (planned, outcome, persuaderStance) => {
        const simulated = { persuader: modelFor(planned.spec.persuaderModel).simulated, persuadee: modelFor(planned.spec.persuadeeModel).simulated };
        const record = toConversationRecord(run.name, planned.spec, outcome, simulated, persuaderStance);
        store.saveConversation(run.id, record);
        progress.add(record.status);
      },
    });
    progress.finish();

    const summary = summarizeTournament(store.conversations(run.id), { replicates: 2000, confidence: 0.95, seed: options.seed });
    context.stdout.write(formatSummaryText(summary, labelModel) + '\n\n');
    context.stdout.write(
      [
        `Results: run ${run.name} in ${store.path}`,
        `Export:  pmiyc export --store ${store.path} --run ${run.name} --format jsonl`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    store.close();
  }
}

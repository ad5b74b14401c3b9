import { z } from 'zod';
import { replaySequentialRule, type SequentialScore, type SequentialSummary } from '../../metrics/sequential/sequential-replay.js';
import type { RunInfo } from '../../runner/run-records.js';

/**
 * report.json `meta.sequential` (docs/design/report.md): for a run made with `pmiyc run --until
 * settled`, the stopping rule replayed over its stored conversations, so that the anytime-valid
 * intervals the report shows come from the records alone, never from state the run kept.
 */

const sequentialRunSchema = z.looseObject({
  design: z.looseObject({
    persuaders: z.array(z.string()).min(1),
    persuadees: z.array(z.string()).min(1),
    settings: z.array(z.enum(['single', 'multi'])).min(1),
    sequential: z.object({
      until: z.literal('settled'),
      confidence: z.number().gt(0).lt(1),
      precision: z.number().positive().optional(),
      wave: z.number().int().min(1),
    }),
  }),
  claims: z.looseObject({ count: z.number().int().min(0) }).optional(),
});

/** The sequential summary of one run, or undefined when it was not run with --until (or the report combines runs). */
export function sequentialSummaryOf(runs: readonly RunInfo[], conversationsOf: (run: RunInfo) => Iterable<SequentialScore>): SequentialSummary | undefined {
  if (runs.length !== 1) return undefined;
  const run = runs[0]!;
  const parsed = sequentialRunSchema.safeParse(run.config);
  if (!parsed.success) return undefined;
  const { design } = parsed.data;
  const conversations = [...conversationsOf(run)];
  // The (domain, setting) groups: each domain the run's claims come from, in each of its settings.
  const domains = [...new Set(conversations.map((conversation) => conversation.domain))].sort();
  const perClaim = design.persuaders.length * design.persuadees.length * design.settings.length;
  const claimsPlanned = parsed.data.claims?.count ?? (run.plannedConversations === undefined ? 0 : Math.round(run.plannedConversations / perClaim));
  if (domains.length === 0) return undefined;
  return replaySequentialRule({
    rule: {
      until: 'settled',
      confidence: design.sequential.confidence,
      wave: design.sequential.wave,
      ...(design.sequential.precision === undefined ? {} : { precision: design.sequential.precision }),
    },
    models: {
      persuaders: design.persuaders,
      persuadees: design.persuadees,
      groups: domains.flatMap((domain) => design.settings.map((setting) => ({ domain, setting }))),
    },
    runSeed: run.seed,
    claimsPlanned,
    conversations,
  });
}

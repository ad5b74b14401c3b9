import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { claimsRecordOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { InputError } from '../../domain/errors/input-error.js';
import { openStudySession, type StudyRunInput } from '../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT } from '../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import { type PreferenceExample, synthesizePreference } from './judge-synthesis.js';

/**
 * The claims a synthesis argues for: the subjective ones of a selection (the paper synthesized pairs
 * for subjective claims), with how many misinformation items were left out. None is an InputError.
 */
export function subjectiveClaimsOf(claims: readonly Claim[], source: string): { readonly claims: readonly Claim[]; readonly skipped: number } {
  const subjective = claims.filter((claim) => claim.domain === 'subjective');
  if (subjective.length === 0)
    throw new InputError(
      `${source} selects no subjective claims: synthesize argues for claims, not for incorrect answers; use --claims subjective or a file without questions`,
    );
  return { claims: subjective, skipped: claims.length - subjective.length };
}

/** A synthesis is always a new run: the same command again replays what an earlier one made. */
export interface RunSynthesisInput extends Omit<StudyRunInput, 'resume' | 'takeOver'> {
  readonly store: RunRecords;
  /** The model that writes the arguments and their rewrites. */
  readonly model: string;
  /** Subjective claims, in the order the dataset keeps. */
  readonly claims: readonly Claim[];
  /** How the claims were chosen, recorded with the run. */
  readonly claimSelection: { readonly source: string; readonly dataDir?: string; readonly limit?: number; readonly sample?: number };
  readonly sampling: { readonly temperature: number; readonly maxOutputTokens: number; readonly maxAttempts: number };
  /** Where the dataset goes, recorded with the run. */
  readonly out?: string;
}

export interface SynthesisStudyOutcome {
  readonly run: RunInfo;
  /** The pairs made, in claim order. */
  readonly examples: PreferenceExample[];
  /** One line per claim without a usable pair. */
  readonly problems: string[];
  readonly result: TasksResult;
  readonly ending: SessionEnding;
  /** Where the call store stood when the session began: the calls stored after it are this session's. */
  readonly callsMark: number;
  /** Models without prices in the config: the spend does not count them, and says so. */
  readonly modelsWithoutPrice: readonly string[];
}

/**
 * A preference dataset for reward models (paper Sec. 4.1.2): per claim an argument, then a more
 * persuasive rewrite of it, in one session of a new run; every call goes through the call store,
 * so the same command after a stop replays what was done.
 */
export async function runSynthesis(input: RunSynthesisInput): Promise<SynthesisStudyOutcome> {
  const { store } = input;
  const session = await openStudySession(store, input, {
    run: {
      kind: 'judge-synthesize',
      prefix: 'synthesis',
      nameFlag: '--study',
      noun: 'synthesis run',
      howToStart: 'run pmiyc judge synthesize again: what was done is replayed',
      content: { noun: 'claims', source: input.claimSelection.source, checksum: claimsChecksum(input.claims) },
      create: (models) => ({
        config: {
          command: 'judge-synthesize',
          design: { model: input.model, claims: input.claimSelection, sampling: input.sampling },
          claims: claimsRecordOf(input.claims),
          models: models.stored,
          ...(input.out ? { out: input.out } : {}),
        },
      }),
    },
    models: [input.model],
    unit: 'claims',
    total: input.claims.length,
    command: 'pmiyc judge synthesize',
  });
  const { run } = session;
  const examples = new Map<number, PreferenceExample>();
  const problems: string[] = [];
  let result: TasksResult;
  let ending: SessionEnding | undefined;
  try {
    result = await runTasks({
      tasks: input.claims.map((claim, position) => ({ claim, position })),
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      run: async ({ claim, position }) => {
        const outcome = await synthesizePreference({
          model: session.registry.modelFor(input.model),
          modelName: input.model,
          claim,
          runSeed: input.seed,
          settings: input.sampling,
          abortSignal: session.signals.abort,
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
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  const ordered = [...examples].sort(([a], [b]) => a - b).map(([, example]) => example);
  return { run, examples: ordered, problems, result, ending, callsMark: session.callsMark, modelsWithoutPrice: session.modelsWithoutPrice };
}

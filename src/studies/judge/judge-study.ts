import { type JudgePair, judgePairsChecksum } from '../../datasets/judge-pairs.js';
import { openStudySession, type StudyRunInput } from '../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type SessionFacts, sessionFacts } from '../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import type { LoadedPairs, StoredJudgeDesign } from './judge-design.js';
import type { JudgeResults } from './judge-results.js';
import { judgePair } from './judge-trial.js';

export interface RunJudgeInput extends StudyRunInput {
  readonly store: RunRecords & { readonly judge: JudgeResults };
  readonly design: StoredJudgeDesign;
  readonly pairs: LoadedPairs;
  /** Told of each trial whose call failed (not stored; asked again on resume). */
  readonly onFailedTrial?: (judge: string, pair: JudgePair, detail: string) => void;
}

export interface JudgeOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  /** Failed trials by reason. */
  readonly failures: ReadonlyMap<string, number>;
  readonly ending: SessionEnding;
}

/** Trials in order: pair by pair, every judge on a pair before the next, so all judges progress together. */
function* plannedTrials(pairs: readonly JudgePair[], judges: readonly string[]): Generator<{ judge: string; pair: JudgePair }> {
  for (const pair of pairs) for (const judge of judges) yield { judge, pair };
}

/**
 * LLM as judge (paper Sec. 4.1.2): every judge sees every pair once, in a seeded order, in one
 * session of the run (lease, call cache, gate, progress); trials are stored one by one, so a
 * resumed run asks only for what is missing.
 */
export async function runJudgeStudy(input: RunJudgeInput): Promise<JudgeOutcome> {
  const { store, design, pairs } = input;
  const session = await openStudySession(store, input, {
    run: {
      kind: 'judge',
      prefix: 'judge',
      nameFlag: '--study',
      noun: 'judge run',
      howToStart: 'start one with pmiyc judge --models a,b',
      content: { noun: 'pairs', source: design.pairs.source, checksum: judgePairsChecksum(pairs.pairs) },
      create: (models) => ({
        config: {
          command: 'judge',
          design,
          pairs: {
            source: pairs.source,
            license: pairs.license,
            count: pairs.pairs.length,
            available: pairs.available,
            claims: pairs.claims,
            ...(pairs.ties === undefined ? {} : { ties: pairs.ties }),
          },
          models: models.stored,
        },
        plannedConversations: pairs.pairs.length * design.judges.length,
      }),
    },
    models: design.judges,
    unit: 'trials',
    total: pairs.pairs.length * design.judges.length,
    command: input.resume ? 'pmiyc judge --resume' : 'pmiyc judge',
  });
  const { run } = session;
  const failures = new Map<string, number>();
  let result: TasksResult;
  let ending: SessionEnding | undefined;
  try {
    result = await runTasks({
      tasks: plannedTrials(pairs.pairs, design.judges),
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: ({ judge, pair }) => store.judge.has(run.id, judge, pair.id),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      run: async ({ judge, pair }) => {
        const outcome = await judgePair({
          model: session.registry.modelFor(judge),
          modelName: judge,
          pair,
          runSeed: run.seed,
          settings: design.sampling,
          abortSignal: session.signals.abort,
        });
        session.meter.conversationsDone += 1;
        if (outcome.status === 'failed') {
          session.meter.conversationsFailed += 1;
          failures.set(outcome.reason, (failures.get(outcome.reason) ?? 0) + 1);
          input.onFailedTrial?.(judge, pair, outcome.detail);
          return 'failed';
        }
        store.judge.save(run.id, outcome.record);
        if (outcome.record.chosen === null) session.meter.conversationsFailed += 1;
        return 'done';
      },
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, failures, ending, ...sessionFacts(session) };
}

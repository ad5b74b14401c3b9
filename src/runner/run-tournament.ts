import pLimit from 'p-limit';
import { claimKey } from '../domain/claim.js';
import type { AgreementScore } from '../domain/agreement-score.js';
import type { ConversationOutcome, ConversationSpec } from '../domain/conversation.js';
import type { SamplingSettings } from '../engine/sample-turn.js';
import { runConversation } from '../engine/run-conversation.js';
import type { ChatModel } from '../models/chat-model.js';
import type { PlannedConversation } from './plan.js';

export interface RunTournamentInput {
  readonly plan: readonly PlannedConversation[];
  readonly modelFor: (modelName: string) => ChatModel;
  readonly sampling?: Partial<SamplingSettings>;
  /** Conversations in flight at once. */
  readonly concurrency: number;
  readonly abortSignal?: AbortSignal;
  /**
   * Called once per planned conversation as it finishes (completed or failed), in finishing order,
   * with the persuader's own stance on the claim (null when its opening could not be had).
   */
  readonly onConversation: (conversation: PlannedConversation, outcome: ConversationOutcome, persuaderStance: AgreementScore | null) => void | Promise<void>;
}

/** Single-flight memo: the first caller of a key runs the work, later callers share its promise. */
function memoize<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (key, work) => {
    const existing = inFlight.get(key);
    if (existing) return existing;
    const started = work();
    inFlight.set(key, started);
    return started;
  };
}

/**
 * Runs every planned conversation, sharing work as SPEC 1.4 says: the persuadee's opening once
 * per (persuadee, claim), the first argument once per (persuader, persuadee, claim, repetition)
 * for both settings. A failed shared prefix fails every conversation built on it, with its reason.
 */
export async function runTournament(input: RunTournamentInput): Promise<void> {
  const shareOpening = memoize<ConversationOutcome>();
  const shareFirstArgument = memoize<ConversationOutcome>();
  const limit = pLimit({ concurrency: Math.max(1, input.concurrency), rejectOnClear: true });
  const common = (spec: ConversationSpec) => ({
    spec,
    persuader: input.modelFor(spec.persuaderModel),
    persuadee: input.modelFor(spec.persuadeeModel),
    ...(input.sampling ? { sampling: input.sampling } : {}),
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
  });

  const openingOf = (spec: ConversationSpec) =>
    shareOpening([spec.persuadeeModel, claimKey(spec.claim)].join('\u001f'), () =>
      runConversation({ ...common(spec), stopAfterTurn: 1 }),
    );

  const firstArgumentOf = (spec: ConversationSpec) =>
    shareFirstArgument([spec.persuaderModel, spec.persuadeeModel, claimKey(spec.claim), spec.repetition].join('\u001f'), async () => {
      const opening = await openingOf(spec);
      if (opening.status !== 'partial') return opening;
      return runConversation({ ...common(spec), prefix: opening.turns, stopAfterTurn: 2 });
    });

  /** The persuader's opening as a persuadee on the claim: shared with its own conversations as persuadee. */
  const persuaderStanceOf = async (spec: ConversationSpec): Promise<AgreementScore | null> => {
    const opening = await openingOf({ ...spec, persuadeeModel: spec.persuaderModel });
    return opening.status === 'partial' ? (opening.turns[0]?.score ?? null) : null;
  };

  const runOne = async (planned: PlannedConversation) => {
    const prefix = await firstArgumentOf(planned.spec);
    const outcome = prefix.status === 'partial' ? await runConversation({ ...common(planned.spec), prefix: prefix.turns }) : prefix;
    await input.onConversation(planned, outcome, await persuaderStanceOf(planned.spec));
  };

  // On an abort or a bug, start nothing new, let what is in flight settle (and be saved),
  // then report the error that stopped the run.
  let stoppedBy: { error: unknown } | undefined;
  await Promise.allSettled(
    input.plan.map((planned) =>
      limit(() => runOne(planned)).catch((error: unknown) => {
        if (stoppedBy) return;
        stoppedBy = { error };
        limit.clearQueue();
      }),
    ),
  );
  if (stoppedBy) throw stoppedBy.error;
}

import { claimKey } from '../../domain/claim.js';
import type { Turn } from '../../domain/conversation.js';
import { hashString } from '../../domain/random.js';
import type { SeedNames } from '../../engine/call-seed.js';
import { askDriftProbe } from '../../engine/drift-probe.js';
import { runConversation } from '../../engine/run-conversation.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import { type CachedReply, cachedRequestOf, requestHash } from '../../models/call-cache.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { ChatModelMiddleware } from '../../models/decorate.js';
import type { AgentPrompts } from '../../protocol/prompt-variants.js';
import type { StoredProgress } from './forecast/plan-estimate.js';
import type { PlannedConversation } from './plan.js';

/** The stored calls a run may replay, by request hash; looking one up changes nothing. */
export interface StoredCalls {
  lookup(hash: string): CachedReply | undefined;
}

/** A request the store does not hold: the replay of a conversation ends there. */
class NotStored extends Error {}

/** Whether an error is a replay's request the store does not hold (`StoredCallReplay`), rather than a failure. */
export const isNotStored = (error: unknown): boolean => error instanceof NotStored;

/**
 * Models that answer from the stored calls alone, counting the distinct calls found: a model's
 * layer where a run has its call cache (inside the model's own settings, so that the request is
 * hashed as a run hashes it). A request not stored ends the replay; nothing is ever called.
 */
export class StoredCallReplay {
  private readonly found = new Set<number>();

  constructor(
    private readonly calls: StoredCalls,
    /** Request hashes a run would ask again rather than replay (the failed turns of --retry-failed). */
    private readonly refresh?: ReadonlySet<string>,
  ) {}

  /** The layer for a model served as `identity` (models/model-identity.ts). */
  layer(identity: string): ChatModelMiddleware {
    return () => async (request) => {
      const hash = requestHash(identity, cachedRequestOf(request));
      const stored = this.refresh?.has(hash) ? undefined : this.calls.lookup(hash);
      if (!stored) throw new NotStored(hash);
      this.found.add(hashString(hash));
      return { ...stored.reply, callHash: hash, cached: true };
    };
  }

  /** Distinct stored calls found so far. */
  get callsFound(): number {
    return this.found.size;
  }
}

export interface StoredProgressInput {
  readonly plan: Iterable<PlannedConversation>;
  /** Each agent's model, answering through a `StoredCallReplay` layer. */
  readonly modelFor: (agent: string) => ChatModel;
  readonly replay: StoredCallReplay;
  readonly promptsFor: (agent: string) => AgentPrompts;
  readonly seedNamesFor: (agent: string) => SeedNames;
  readonly sampling: SamplingSettings;
  /** Conversations the run holds already, which a resume skips. */
  readonly isDone?: (planned: PlannedConversation) => boolean;
  /** The run asks each completed conversation's drift probe: whether it is stored is found too. */
  readonly probeDrift?: boolean;
}

export interface StoredWork {
  /** What the store holds of each conversation it holds something of, by conversation id. */
  readonly progress: ReadonlyMap<string, StoredProgress>;
  /** Distinct stored calls the run would replay rather than make. */
  readonly storedCalls: number;
  /** Conversations whose every call is stored. */
  readonly conversationsReplayed: number;
  /** Conversations the run holds already. */
  readonly conversationsDone: number;
}

const stoppedEarly = (turns: readonly Turn[]) => turns.at(-1)?.kind === 'reply' && turns.at(-1)?.score === 5;

/**
 * What the store already holds of a plan, found as a run finds it: each conversation is run
 * against its stored calls alone (the same requests, seeds and re-samples a run would make) until a
 * request is missing. Nothing is called and nothing is written. A dry run counts those calls as
 * free and estimates the rest (`estimatePlan`).
 */
export async function findStoredProgress(input: StoredProgressInput): Promise<StoredWork> {
  const progress = new Map<string, StoredProgress>();
  const stances = new Map<string, boolean>();
  let conversationsReplayed = 0;
  let conversationsDone = 0;
  for (const planned of input.plan) {
    if (input.isDone?.(planned)) {
      conversationsDone += 1;
      progress.set(planned.id, { complete: true, storedTurns: planned.spec.turns, nextIsFinal: false, stanceStored: true, probeStored: true });
      continue;
    }
    const { spec } = planned;
    const stanceKey = [input.seedNamesFor(spec.persuaderModel).persuadee, claimKey(spec.claim), spec.repetition].join('\u001f');
    let stanceStored = stances.get(stanceKey);
    if (stanceStored === undefined) {
      const asPersuadee = { ...spec, persuadeeModel: spec.persuaderModel };
      stanceStored = (await replay(input, asPersuadee, 1)).complete;
      stances.set(stanceKey, stanceStored);
    }
    const conversation = await replay(input, spec);
    // Whole, its drift probe included when the run asks one.
    if (conversation.complete && conversation.probeStored !== false) conversationsReplayed += 1;
    if (stanceStored || conversation.storedTurns > 0) progress.set(planned.id, { ...conversation, stanceStored });
  }
  return { progress, storedCalls: input.replay.callsFound, conversationsReplayed, conversationsDone };
}

/** How far a conversation (or, with `stopAfterTurn`, its prefix) replays from the stored calls. */
async function replay(input: StoredProgressInput, spec: PlannedConversation['spec'], stopAfterTurn?: number): Promise<Omit<StoredProgress, 'stanceStored'>> {
  const turns: Turn[] = [];
  let complete = false;
  const persuader = input.seedNamesFor(spec.persuaderModel);
  const persuadee = input.seedNamesFor(spec.persuadeeModel);
  try {
    const outcome = await runConversation({
      spec,
      persuader: input.modelFor(spec.persuaderModel),
      persuadee: input.modelFor(spec.persuadeeModel),
      prompts: { persuader: input.promptsFor(spec.persuaderModel), persuadee: input.promptsFor(spec.persuadeeModel) },
      seedNames: { persuader: persuader.persuader, persuadee: persuadee.persuadee },
      sampling: input.sampling,
      onTurn: (turn) => turns.push(turn),
      ...(stopAfterTurn === undefined ? {} : { stopAfterTurn }),
    });
    complete = true;
    if (input.probeDrift && outcome.status === 'completed') {
      await askDriftProbe({
        spec,
        turns,
        persuader: input.modelFor(spec.persuaderModel),
        prompts: input.promptsFor(spec.persuaderModel),
        seedNames: { persuader: persuader.persuader, persuadee: persuadee.persuadee },
        sampling: input.sampling,
      });
    }
    return { complete: true, storedTurns: turns.length, nextIsFinal: false, probeStored: true };
  } catch (error) {
    if (!(error instanceof NotStored)) throw error;
    // A conversation replayed whole whose probe is not stored: only the probe is asked.
    if (complete) return { complete: true, storedTurns: turns.length, nextIsFinal: false, probeStored: false };
    return { complete: false, storedTurns: turns.length, nextIsFinal: stoppedEarly(turns) };
  }
}

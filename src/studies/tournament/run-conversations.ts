import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Attempt, ConversationOutcome, FailedConversation, FailureReason, Turn } from '../../domain/conversation.js';
import type { DriftProbe } from '../../domain/conversation-record.js';
import type { SeedNames } from '../../engine/call-seed.js';
import { askDriftProbe } from '../../engine/drift-probe.js';
import { runConversation } from '../../engine/run-conversation.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import type { ChatModel } from '../../models/chat-model.js';
import { type AgentPrompts, DEFAULT_PROMPTS } from '../../protocol/prompt-variants.js';
import { RunGate, type StopReason } from '../../runner/run-gate.js';
import { runTasks } from '../../runner/run-tasks.js';
import type { PlannedConversation } from './plan.js';

export interface RunConversationsInput {
  /** The conversations to run, read lazily. */
  readonly plan: Iterable<PlannedConversation>;
  /**
   * The model behind a name. Sharing of openings and first arguments (SPEC 1.4) comes from the
   * call cache these models are wrapped in: shared calls are identical requests, made once.
   */
  readonly modelFor: (modelName: string) => ChatModel;
  /** Each agent's prompts (its prompt variant); pmiyc's own wording unless given. */
  readonly promptsFor?: (agentName: string) => AgentPrompts;
  /**
   * For each role, the name an agent's calls are seeded by (`seedNamesOf`): its model's for a role
   * its variant leaves as pmiyc's own, so that the same request is asked once. The agent's own unless given.
   */
  readonly seedNamesFor?: (agentName: string) => SeedNames;
  readonly sampling?: Partial<SamplingSettings>;
  /** Conversations in flight at once (each has at most one call on the wire). */
  readonly concurrency: number;
  /** Decides whether work may start; stopping it lets in-flight calls finish. Stopped by the runner on too many failures. */
  readonly gate?: RunGate;
  /** A hard stop: in-flight calls are abandoned. */
  readonly abortSignal?: AbortSignal;
  /** Conversations already stored (a resumed run) are skipped. */
  readonly isDone?: (conversation: PlannedConversation) => boolean;
  /** Stop starting work once more than this many conversations failed (a count, or a fraction of those finished when < 1). */
  readonly maxFailures?: number;
  /**
   * Ask each completed conversation's persuader the drift probe after it (`--probe-drift`): where it
   * stands now, with the conversation in context (engine/drift-probe.ts).
   */
  readonly probeDrift?: boolean;
  /**
   * Called once per conversation as it finishes (completed or failed), in finishing order, with the
   * persuader's own stance on the claim (null when its opening could not be had) and, with
   * `probeDrift`, a completed conversation's drift probe.
   */
  readonly onConversation: (
    conversation: PlannedConversation,
    outcome: ConversationOutcome,
    persuaderStance: AgreementScore | null,
    driftProbe?: DriftProbe,
  ) => void | Promise<void>;
  readonly onSkipped?: (conversation: PlannedConversation) => void;
  /** Called with each accepted turn of a conversation as it happens (not those of the persuader's own stance). */
  readonly onTurn?: (conversation: PlannedConversation, turn: Turn) => void;
}

export interface ConversationsResult {
  readonly status: 'completed' | 'stopped';
  readonly stopReason?: StopReason;
  readonly finished: number;
  readonly failed: number;
  readonly skipped: number;
  /** Conversations started but not finished because the run stopped (resumable). */
  readonly abandoned: number;
}

/** Minimum finished conversations before a fractional failure limit applies. */
const MIN_FOR_FAILURE_FRACTION = 20;

function tooManyFailures(maxFailures: number | undefined, failed: number, finished: number): boolean {
  if (maxFailures === undefined) return false;
  if (maxFailures >= 1 || maxFailures === 0) return failed > maxFailures;
  return finished >= MIN_FOR_FAILURE_FRACTION && failed / finished > maxFailures;
}

/**
 * A conversation whose persuader's stance could not be asked (its call failed after its retries):
 * failed, so that the record is never stored without a stance the model would have given, and a
 * `--retry-failed` asks the stance again while replaying the conversation's own calls from the store.
 */
function withoutStance(conversation: ConversationOutcome, stance: FailedConversation): FailedConversation {
  return {
    status: 'failed',
    turns: conversation.turns,
    reason: stance.reason,
    detail: `the persuader's own stance on the claim (its opening as a persuadee) was not answered: ${stance.detail}`,
    failedTurn: stance.failedTurn,
    failedRole: 'persuader',
    failedAttempts: stance.failedAttempts,
  };
}

/**
 * A completed conversation whose drift probe could not be asked (its call failed after its
 * retries): failed as a conversation without its stance is, so that `--retry-failed` asks the probe
 * again, replaying the conversation's own calls from the store. (A probe whose replies were all
 * unusable is not a failure: it is kept with score null.)
 */
function withoutProbe(
  conversation: ConversationOutcome,
  probe: { readonly reason: FailureReason; readonly detail: string; readonly attempts: readonly Attempt[] },
): FailedConversation {
  return {
    status: 'failed',
    turns: conversation.turns,
    reason: probe.reason,
    detail: `the persuader's drift probe (its stance asked again after the conversation) was not answered: ${probe.detail}`,
    failedTurn: conversation.turns.length + 1,
    failedRole: 'persuader',
    failedAttempts: probe.attempts,
  };
}

/** One side of a conversation as it is asked: the agent's model, its prompts and the names its calls are seeded by. */
interface ConversationSide {
  readonly model: ChatModel;
  readonly prompts: AgentPrompts;
  readonly seedNames: SeedNames;
}

interface ConversationSides {
  readonly persuader: ConversationSide;
  readonly persuadee: ConversationSide;
}

/** Each planned conversation's two sides, each looked up once from the input's functions (pmiyc's own prompts and seeds unless given). */
function conversationSides(input: RunConversationsInput): (planned: PlannedConversation) => ConversationSides {
  const sideOf = (agent: string): ConversationSide => ({
    model: input.modelFor(agent),
    prompts: input.promptsFor?.(agent) ?? DEFAULT_PROMPTS,
    seedNames: input.seedNamesFor?.(agent) ?? { persuader: agent, persuadee: agent },
  });
  return (planned) => ({ persuader: sideOf(planned.spec.persuaderModel), persuadee: sideOf(planned.spec.persuadeeModel) });
}

/**
 * Runs every planned conversation that is not done yet, keeping `concurrency` conversations in
 * flight (through the shared scheduler, `runTasks`); a conversation's turns are sequential,
 * different conversations interleave. A stop (Ctrl-C, budget, too many failures) starts nothing
 * new; what was started either finishes or is abandoned unsaved, re-run from its stored calls on
 * resume.
 */
export async function runConversations(input: RunConversationsInput): Promise<ConversationsResult> {
  const gate = input.gate ?? new RunGate();
  const sidesOf = conversationSides(input);
  const shared = {
    ...(input.sampling ? { sampling: input.sampling } : {}),
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
  };
  const common = ({ persuader, persuadee }: ConversationSides) => ({
    persuader: persuader.model,
    persuadee: persuadee.model,
    prompts: { persuader: persuader.prompts, persuadee: persuadee.prompts },
    seedNames: { persuader: persuader.seedNames.persuader, persuadee: persuadee.seedNames.persuadee },
    ...shared,
  });

  /**
   * The persuader's opening as a persuadee on the claim (in this repetition): the same request as
   * its own opening there, or its model's when its variant leaves the persuadee's prompts alone. Null
   * when the model gave no usable stance; a failed call (reason `api`) comes back as the failure.
   */
  const persuaderStanceOf = async (planned: PlannedConversation, sides: ConversationSides): Promise<AgreementScore | null | FailedConversation> => {
    const opening = await runConversation({
      ...common({ persuader: sides.persuader, persuadee: sides.persuader }),
      prompts: { persuadee: sides.persuader.prompts },
      seedNames: sides.persuader.seedNames,
      spec: { ...planned.spec, persuadeeModel: planned.spec.persuaderModel },
      stopAfterTurn: 1,
    });
    if (opening.status === 'failed' && opening.reason === 'api') return opening;
    return opening.status === 'partial' ? (opening.turns[0]?.score ?? null) : null;
  };

  const finished = { all: 0, failed: 0 };
  const result = await runTasks({
    tasks: input.plan,
    concurrency: input.concurrency,
    gate,
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
    ...(input.isDone ? { isDone: input.isDone } : {}),
    ...(input.onSkipped ? { onSkipped: input.onSkipped } : {}),
    run: async (planned) => {
      const onTurn = input.onTurn;
      const sides = sidesOf(planned);
      const conversation = await runConversation({
        ...common(sides),
        spec: planned.spec,
        ...(onTurn ? { onTurn: (turn: Turn) => onTurn(planned, turn) } : {}),
      });
      const stance = await persuaderStanceOf(planned, sides);
      let outcome = typeof stance === 'object' && stance !== null && conversation.status !== 'failed' ? withoutStance(conversation, stance) : conversation;
      let driftProbe: DriftProbe | undefined;
      if (input.probeDrift && outcome.status === 'completed') {
        const { persuader, prompts, seedNames } = common(sides);
        const probed = await askDriftProbe({ spec: planned.spec, turns: outcome.turns, persuader, prompts: prompts.persuader, seedNames, ...shared });
        if (probed.ok) driftProbe = probed.probe;
        else outcome = withoutProbe(outcome, probed);
      }
      await input.onConversation(planned, outcome, typeof stance === 'number' ? stance : null, driftProbe);
      finished.all += 1;
      if (outcome.status === 'failed') finished.failed += 1;
      if (tooManyFailures(input.maxFailures, finished.failed, finished.all)) gate.stop('failures');
      return outcome.status === 'failed' ? 'failed' : 'done';
    },
  });
  const { done, failed, skipped, abandoned, status, stopReason } = result;
  return { status, ...(stopReason ? { stopReason } : {}), finished: done + failed, failed, skipped, abandoned };
}

import {
  type CallTally,
  estimateProtocolRun,
  type ModelPrices,
  type ProtocolEstimate,
  replyOfTokens,
  type StoredConversationProgress,
} from '../../../studies/protocol-estimate.js';
import {
  persusafetyJudgeMessages,
  persusafetyPersuadeeMessages,
  persusafetyPersuaderMessages,
  persusafetyTaskProbeMessages,
} from '../conversation/persusafety-messages.js';
import type { PersusafetyTurn } from '../conversation/persusafety-outcome.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyTask } from './persusafety-study.js';

/**
 * What a PersuSafety run may cost, without running it (`pmiyc run --protocol persusafety --dry-run`): every call a
 * conversation asks if it runs its every turn (a declined task, an acceptance or a fourth rejection ends it
 * sooner: the estimate is a ceiling), counted per model, its input tokens from the very requests the run builds
 * (earlier replies stood in for by text of the assumed length), its output tokens assumed, priced from the config.
 * Re-asks of unusable replies are not counted, as in the tournament's and APE's estimates. Pure.
 */

/** What the estimate assumes of the replies, and each model's prices (none: the model is named as unpriced). */
export interface PersusafetyEstimateAssumptions {
  /** Output tokens of an agent's message: the persuader's message, the persuadee's reply. */
  readonly messageTokens: number;
  /** Output tokens of the persuader's answer to the task probe. */
  readonly probeTokens: number;
  /** Output tokens of the judge's JSON answer (15 scores with their rationales). */
  readonly judgementTokens: number;
  readonly prices: ModelPrices;
}

/** How much of a planned conversation the store holds already: such calls are replayed for free and not counted. */
export interface PersusafetyStoredProgress extends StoredConversationProgress {
  readonly probeStored: boolean;
}

/** A conversation of which the store holds nothing. */
export const NOTHING_STORED: PersusafetyStoredProgress = { complete: false, probeStored: false, storedTurns: 0 };

/** The calls of one conversation after what the store holds: the probe, each turn's persuader and persuadee, the judge. */
function tallyConversation(
  tally: CallTally,
  design: PersusafetyRunDesign,
  task: PersusafetyTask,
  stored: PersusafetyStoredProgress,
  assumptions: PersusafetyEstimateAssumptions,
): void {
  const { plan } = task;
  if (!stored.probeStored) tally.add(task.persuader, persusafetyTaskProbeMessages(plan), assumptions.probeTokens);
  const message = replyOfTokens(assumptions.messageTokens);
  const turnOf = (turn: number): PersusafetyTurn => ({
    turn,
    persuader: { message, withheld: false, attempts: [] },
    reply: { message, raw: message, decision: 'undecided', attempts: [] },
  });
  const exchanges = Array.from({ length: stored.storedTurns }, () => ({ persuader: message, persuadee: message }));
  for (let turn = stored.storedTurns; turn < plan.turns; turn++) {
    tally.add(task.persuader, persusafetyPersuaderMessages(plan, exchanges), assumptions.messageTokens);
    tally.add(design.persuadee, persusafetyPersuadeeMessages(plan, exchanges, message), assumptions.messageTokens);
    exchanges.push({ persuader: message, persuadee: message });
  }
  const judgementTokens = Math.min(assumptions.judgementTokens, design.judgeSampling.maxOutputTokens);
  tally.add(
    design.judge,
    persusafetyJudgeMessages(
      plan,
      Array.from({ length: plan.turns }, (_, turn) => turnOf(turn)),
    ),
    judgementTokens,
  );
}

/**
 * The calls still to make of `tasks` (the run's plan, `planPersusafetyTasks`) and their cost, each conversation
 * taken to its last turn. `progressOf` says what the store holds of a conversation already (a dry run replays it):
 * those calls are free and left out, and a conversation the store holds whole asks nothing.
 */
export function estimatePersusafetyRun(
  design: PersusafetyRunDesign,
  tasks: Iterable<PersusafetyTask>,
  assumptions: PersusafetyEstimateAssumptions,
  progressOf: (task: PersusafetyTask) => PersusafetyStoredProgress = () => NOTHING_STORED,
): ProtocolEstimate {
  const tallyOf = (tally: CallTally, task: PersusafetyTask, stored: PersusafetyStoredProgress) => tallyConversation(tally, design, task, stored, assumptions);
  return estimateProtocolRun(tasks, progressOf, tallyOf, assumptions.prices);
}

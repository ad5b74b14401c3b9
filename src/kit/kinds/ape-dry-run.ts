import type { PmiycConfig } from '../../config/config-schema.js';
import { formatCount } from '../../domain/text-labels.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import type { ApeTopic } from '../../protocols/ape/ape-topics.js';
import { type ApeDesign, apeModelsOf } from '../../protocols/ape/run/ape-design.js';
import { type ApeEstimateAssumptions, estimateApeRun, NOTHING_STORED } from '../../protocols/ape/run/ape-estimate.js';
import { apeItemKey } from '../../protocols/ape/run/ape-record.js';
import { apeConversationReplay } from '../../protocols/ape/run/ape-stored-work.js';
import { planApeTasks } from '../../protocols/ape/run/ape-study.js';
import { apeSimulatedProtocol } from '../../protocols/ape/sim/ape-simulated.js';
import type { ModelPrices } from '../../studies/protocol-estimate.js';
import {
  batchLines,
  conversationsToRun,
  modelTable,
  type ProtocolDryRunSettings,
  pricesOf,
  storedProgressOf,
  storeLine,
  storeReuse,
  totalCostLine,
} from './protocol-dry-run.js';

/**
 * `pmiyc run --protocol ape --dry-run`: the plan, what the store holds of it (replayed for free by a run), the
 * calls still to make of each model with their tokens and cost, and the assumptions said, in the words of the
 * tournament's dry run (report/texts/dry-run-text.ts). Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design and topics, its seed, its config, and the run it continues. */
export interface ApeDryRunInput extends ProtocolDryRunSettings {
  readonly design: ApeDesign;
  readonly topics: readonly ApeTopic[];
  readonly topicSource: string;
  readonly seed: number;
  readonly config: PmiycConfig;
  /** `--batch` (now, or kept with the resumed run). */
  readonly batch: boolean;
}

/** Output tokens of a judge's JSON answer: a sentence or two of reasoning and the keys. */
const JUDGE_ANSWER_TOKENS = 80;

/** See the top of this file. */
export async function apeDryRunText(input: ApeDryRunInput): Promise<string[]> {
  const { design, topics } = input;
  const conversations = design.persuaders.length * topics.length * design.repetitions;
  const tasks = () => planApeTasks(design, topics, input.seed);
  const reuse = await storeReuse(input, { tasks: tasks(), replay: apeConversationReplay(design), simulatedProtocol: apeSimulatedProtocol(topics) });
  const progressOf = storedProgressOf(reuse, apeItemKey, NOTHING_STORED);
  const assumptions: ApeEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    answerTokens: JUDGE_ANSWER_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const estimateAt = (prices: ModelPrices) => estimateApeRun(design, tasks(), { ...assumptions, prices }, progressOf);
  const estimate = estimateAt(assumptions.prices);
  const toRun = conversationsToRun(reuse, conversations);
  const judges = design.refusalCheck ? 'the evaluator, the refusal check' : 'the evaluator';
  return [
    `Dry run: nothing is called. APE run: ${design.persuaders.length} persuaders x ${topics.length} topics (${input.topicSource}) x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations of ${design.turns} persuader turns, at temperature ${design.sampling.temperature}.`,
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make: ${formatCount(estimate.calls)} (the persuadee's opening once per topic and repetition, shared by the persuaders; then on each persuader turn the persuader, ${judges} and the persuadee), before re-asks of unusable replies.`,
    '',
    modelTable(estimate),
    '',
    totalCostLine(estimate),
    ...batchLines(input, {
      models: apeModelsOf(design),
      simulatedProtocol: apeSimulatedProtocol(topics),
      direct: estimate,
      estimateAt,
      // One wave per call of a conversation: its opening, then per persuader turn its three or four calls.
      steps: 1 + design.turns * (design.refusalCheck ? 4 : 3),
      conversations: toRun,
    }),
    `Assumptions: the persuader's and persuadee's messages of about ${assumptions.messageTokens} tokens (half of --max-tokens), the judges' answers of about ${Math.min(JUDGE_ANSWER_TOKENS, design.sampling.maxOutputTokens)} tokens; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; every persuader message judged (a message its provider withholds is not); ` +
      'no re-ask and no prompt cache counted; simulated and llama models cost nothing.',
  ];
}

import type { PmiycConfig } from '../../config/config-schema.js';
import { formatCount } from '../../domain/text-labels.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import { type SyconDesign, syconModelsOf } from '../../protocols/sycon/run/sycon-design.js';
import { estimateSyconRun, NOTHING_STORED, type SyconEstimateAssumptions } from '../../protocols/sycon/run/sycon-estimate.js';
import { syconItemKey } from '../../protocols/sycon/run/sycon-record.js';
import { syconConversationReplay } from '../../protocols/sycon/run/sycon-stored-work.js';
import { planSyconTasks } from '../../protocols/sycon/run/sycon-study.js';
import { syconSimulatedProtocol } from '../../protocols/sycon/sim/sycon-simulated.js';
import type { SyconQuestion } from '../../protocols/sycon/sycon-questions.js';
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
 * `pmiyc run --protocol sycon --dry-run`: the plan, what the store holds of it (replayed for free by a run), the calls
 * still to make of each model with their tokens and cost, and the assumptions said, in the words of the other dry
 * runs (report/texts/dry-run-text.ts). Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design and questions, its seed, its config, and the run it continues. */
export interface SyconDryRunInput extends ProtocolDryRunSettings {
  readonly design: SyconDesign;
  readonly questions: readonly SyconQuestion[];
  readonly questionSource: string;
  readonly seed: number;
  readonly config: PmiycConfig;
  /** `--batch` (now, or kept with the resumed run). */
  readonly batch: boolean;
}

/** Output tokens of the judge's JSON answer: a sentence or two of reasoning and the label. */
const JUDGE_ANSWER_TOKENS = 60;

/** See the top of this file. */
export async function syconDryRunText(input: SyconDryRunInput): Promise<string[]> {
  const { design, questions } = input;
  const defences = design.defences.list.map((defence) => defence.name);
  const conversations = design.persuadees.length * defences.length * questions.length * design.repetitions;
  const tasks = () => planSyconTasks(design, questions, input.seed);
  // Simulated agents are built as a run builds them (their SYCON keys checked), though only the store answers.
  const simulatedProtocol = syconSimulatedProtocol(design.defences.list);
  const reuse = await storeReuse(input, { tasks: tasks(), replay: syconConversationReplay(design), simulatedProtocol });
  const progressOf = storedProgressOf(reuse, syconItemKey, NOTHING_STORED);
  const assumptions: SyconEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    answerTokens: JUDGE_ANSWER_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const estimateAt = (prices: ModelPrices) => estimateSyconRun(design, tasks(), { ...assumptions, prices }, progressOf);
  const estimate = estimateAt(assumptions.prices);
  const pressure = design.persuader ? "the pressure agent's push-back where the question has none of the benchmark's, " : '';
  return [
    `Dry run: nothing is called. SYCON-Bench run: ${design.persuadees.length} models x ${defences.length} defences (${defences.join(', ')}) x ${questions.length} questions (${input.questionSource}) x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations of ${design.pressureTurns} pressure turns, at temperature ${design.sampling.temperature}.`,
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make: ${formatCount(estimate.calls)} (the first answer and its label, then on each pressure turn ${pressure}the reply and its label), before re-asks of unusable replies.`,
    ...(design.persuader ? [] : ["No pressure agent: a turn without the benchmark's push-back gets pmiyc's fixed disagreement, which costs nothing."]),
    '',
    modelTable(estimate),
    '',
    totalCostLine(estimate),
    ...batchLines(input, {
      models: syconModelsOf(design),
      simulatedProtocol,
      direct: estimate,
      estimateAt,
      // One wave per call of a conversation: the first answer and its label, then per pressure turn the agent's push-back (with one), the reply and its label.
      steps: 2 + design.pressureTurns * (design.persuader ? 3 : 2),
      conversations: conversationsToRun(reuse, conversations),
    }),
    `Assumptions: the model's replies and the agent's push-backs of about ${assumptions.messageTokens} tokens (half of --max-tokens), the judge's answers of about ${Math.min(JUDGE_ANSWER_TOKENS, design.sampling.maxOutputTokens)} tokens; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; ` +
      'no re-ask and no prompt cache counted; simulated and llama models cost nothing.',
  ];
}

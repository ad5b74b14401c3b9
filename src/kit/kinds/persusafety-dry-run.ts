import type { PmiycConfig } from '../../config/config-schema.js';
import { formatCount } from '../../domain/text-labels.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import type { PersusafetyProfile } from '../../protocols/persusafety/persusafety-facts.js';
import { estimatePersusafetyRun, NOTHING_STORED, type PersusafetyEstimateAssumptions } from '../../protocols/persusafety/run/persusafety-estimate.js';
import {
  type PersusafetyRunDesign,
  persusafetyConstraintsOf,
  persusafetyModelsOf,
  persusafetyTurnsOf,
} from '../../protocols/persusafety/run/persusafety-run-design.js';
import { persusafetyConditionWord } from '../../protocols/persusafety/run/persusafety-run-options.js';
import type { PersusafetyRunScene } from '../../protocols/persusafety/run/persusafety-run-scenes.js';
import { persusafetyConversationReplay } from '../../protocols/persusafety/run/persusafety-stored-work.js';
import { type PersusafetyTask, persusafetyTaskCount, planPersusafetyTasks } from '../../protocols/persusafety/run/persusafety-study.js';
import { persusafetySimulatedProtocol } from '../../protocols/persusafety/sim/persusafety-simulated.js';
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
 * `pmiyc run --protocol persusafety --dry-run`: the plan, what the store holds of it (replayed for free by a run),
 * the calls still to make of each model at most, with their tokens and cost, and the assumptions said, in the words
 * of APE's and the tournament's dry runs. Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design, scenes and profiles, its seed, its config, and the run it continues. */
export interface PersusafetyDryRunInput extends ProtocolDryRunSettings {
  readonly design: PersusafetyRunDesign;
  readonly scenes: readonly PersusafetyRunScene[];
  readonly profiles: ReadonlyMap<PersusafetyProfile, string>;
  readonly source: string;
  readonly seed: number;
  readonly config: PmiycConfig;
  /** `--batch` (now, or kept with the resumed run). */
  readonly batch: boolean;
}

/** Output tokens assumed of the task probe's answer (a line), and of the judge's 15 scores with a sentence each. */
const PROBE_ANSWER_TOKENS = 20;
const JUDGEMENT_TOKENS = 450;

const tasksOf = (input: PersusafetyDryRunInput) => planPersusafetyTasks(input.design, input.scenes, input.profiles, input.seed);

/** The plan in a line: persuaders x scenes x profiles x conditions x constraints x repetitions. */
function planLine(input: PersusafetyDryRunInput, conversations: number): string {
  const { design, scenes } = input;
  const sets = design.sceneSets.map((set) => `${scenes.filter((scene) => scene.sceneSet === set).length} ${set}`).join(' and ');
  const constraints = design.sceneSets.includes('neutral') ? ` x constraints ${persusafetyConstraintsOf(design, 'neutral').join(', ')} (neutral scenes)` : '';
  const turns = design.turns === undefined ? "the benchmark's turns (15 on a harmful task, 10 on a neutral scene)" : `${design.turns} turns at most`;
  return (
    `Dry run: nothing is called. PersuSafety run: ${design.persuaders.length} persuaders x ${sets} scenes (${input.source}) x ${design.profiles.length} profiles x profile ${design.conditions.map(persusafetyConditionWord).join(' and ')}` +
    `${constraints} x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations, ${turns}, at temperature ${design.sampling.temperature}.`
  );
}

/** See the top of this file. */
export async function persusafetyDryRunText(input: PersusafetyDryRunInput): Promise<string[]> {
  const { design } = input;
  const conversations = persusafetyTaskCount(design, input.scenes);
  const reuse = await storeReuse(input, {
    tasks: tasksOf(input),
    replay: persusafetyConversationReplay(design),
    simulatedProtocol: persusafetySimulatedProtocol(input.scenes),
  });
  const assumptions: PersusafetyEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    probeTokens: Math.min(PROBE_ANSWER_TOKENS, design.sampling.maxOutputTokens),
    judgementTokens: JUDGEMENT_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const progressOf = storedProgressOf(reuse, (task: PersusafetyTask) => task.itemKey, NOTHING_STORED);
  const estimateAt = (prices: ModelPrices) => estimatePersusafetyRun(design, tasksOf(input), { ...assumptions, prices }, progressOf);
  const estimate = estimateAt(assumptions.prices);
  const mostTurns = Math.max(...design.sceneSets.map((set) => persusafetyTurnsOf(design, set)));
  return [
    planLine(input, conversations),
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make, at most: ${formatCount(estimate.calls)} (each conversation's task probe, then on each turn the persuader and the persuadee, then one judge's call; a declined task, an acceptance or a fourth rejection ends a conversation sooner), before re-asks of unusable replies.`,
    '',
    modelTable(estimate, 'calls at most'),
    '',
    totalCostLine(estimate, 'Total cost, at most'),
    ...batchLines(input, {
      models: persusafetyModelsOf(design),
      simulatedProtocol: persusafetySimulatedProtocol(input.scenes),
      direct: estimate,
      estimateAt,
      // One wave per call of a conversation at most: its task probe, the persuader and the persuadee on each turn, the judge.
      steps: 2 + 2 * mostTurns,
      conversations: conversationsToRun(reuse, conversations),
    }),
    `Assumptions: every conversation runs its every turn; the persuader's and persuadee's messages of about ${assumptions.messageTokens} tokens (half of --max-tokens), the task probe's answer of about ${assumptions.probeTokens}, the judge's answer of about ${Math.min(JUDGEMENT_TOKENS, design.judgeSampling.maxOutputTokens)}; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; no re-ask and no prompt cache counted; simulated and llama models cost nothing.`,
  ];
}

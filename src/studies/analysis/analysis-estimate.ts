import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import { type ConversationRecord, claimOfRecord } from '../../domain/conversation-record.js';
import { driftProbeMessages } from '../../engine/agent-messages.js';
import type { CallCache } from '../../models/call-cache.js';
import { modelIdentity } from '../../models/model-identity.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { estimatedMessageTokens } from '../../models/token-estimate.js';
import { createModelRegistry } from '../../runner/models/model-registry.js';
import type { AgentRoster, VariantBook } from '../tournament/agents.js';
import type { ModelPrices } from '../tournament/forecast/plan-estimate.js';
import { StoredCallReplay } from '../tournament/stored-progress.js';
import type { AnalysisDesign } from './analysis-design.js';
import { type AnalysisTask, planAnalysisTasks, probedPersuaders } from './analysis-work.js';
import { askRecordDriftProbe } from './drift-probe.js';
import { conversationJudgeMessages, labelConversation } from './label-conversation.js';
import { labelTurn, turnJudgeMessages } from './label-turn.js';

/** Output tokens of a typical answer: a persuader turn's JSON object names a few ids, a persuadee's one boolean. */
const ANSWER_TOKENS = { persuader: 40, persuadee: 8 } as const;
/** Output tokens a turn's key adds to a conversation's answer ("12": and a comma). */
const TURN_KEY_TOKENS = 4;

/** One model's share of the work still to do. */
interface AnalysisModelEstimate {
  readonly model: string;
  /** Label sets (a judge) or drift probes (a persuader) still to ask for: one call each before re-asks. */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no price. */
  readonly costUsd?: number;
}

/** What an analysis study would do: its work, what is stored of it, and what the rest would cost. */
export interface AnalysisEstimate {
  readonly conversations: number;
  readonly turns: number;
  readonly judges: readonly string[];
  /** Label sets the study has (judges x turns), and its label tasks (a call each before re-asks: conversations x judges, or the label sets). */
  readonly labels: number;
  readonly labelTasks: number;
  readonly probes: number;
  /** Tasks the resumed study holds already (skipped): label tasks and probes. */
  readonly storedInStudy: number;
  /** Tasks whose every call is in the call store (replayed for free). */
  readonly replayable: number;
  readonly byModel: readonly AnalysisModelEstimate[];
  readonly costUsd: number;
  readonly unpricedModels: readonly string[];
}

export interface AnalysisEstimateInput {
  readonly design: AnalysisDesign;
  readonly conversations: readonly ConversationRecord[];
  readonly seed: number;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The tournament run's prompt variants (a drift probe asks a persuader with its own prompts). */
  readonly variants: VariantBook;
  /** The drift probe's sampling (the tournament's). */
  readonly driftSampling: AnalysisDesign['sampling'];
  /** The calls a study could replay (the store's, scoped as the study would); none without a store. */
  readonly calls?: Pick<CallCache, 'lookup'>;
  /** Whether the resumed study holds a task already. */
  readonly isStored?: (task: AnalysisTask) => boolean;
  readonly fileSha256?: (settings: ModelSettings) => string | undefined;
}

/** A simulated agent runs inside pmiyc and costs nothing; other models cost what the config says. */
const FREE: ModelPrices = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

/**
 * `pmiyc analyze --dry-run`: the study's tasks, those the resumed study holds, those whose calls the
 * store holds (found by asking each through models that answer only from the stored calls: nothing is
 * called), and tokens and cost of the rest, estimated from the requests' own text (about 4 characters
 * a token) and a short JSON answer. Reads the store, never writes it.
 */
export async function estimateAnalysis(input: AnalysisEstimateInput): Promise<AnalysisEstimate> {
  const { design } = input;
  const replay = input.calls ? new StoredCallReplay(input.calls) : undefined;
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256?.(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, replay ? { decorateFor: (settings) => [replay.layer(identityOf(settings))] } : {});
  const persuaders = probedPersuaders(input.conversations, design, input.variants);
  const tally = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();
  let storedInStudy = 0;
  let replayable = 0;
  let labelTasks = 0;
  let probes = 0;
  let turns = 0;
  for (const record of input.conversations) turns += record.turns.length;
  for (const task of planAnalysisTasks(input.conversations, design)) {
    if (task.kind === 'drift') probes += 1;
    else labelTasks += 1;
    if (input.isStored?.(task)) {
      storedInStudy += 1;
      continue;
    }
    const model = task.kind === 'drift' ? persuaders.agent(task.record.persuader).model : task.judge;
    if (replay && (await answersFromStore(task, registry.modelFor(model), input, persuaders))) {
      replayable += 1;
      continue;
    }
    const entry = tally.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    entry.calls += 1;
    if (task.kind === 'labels') {
      const messages = turnJudgeMessages(design.taxonomy, task.record, task.turn);
      entry.inputTokens += estimatedMessageTokens(messages);
      const role = task.record.turns.find((turn) => turn.index === task.turn)?.role ?? 'persuader';
      entry.outputTokens += Math.min(design.sampling.maxOutputTokens, ANSWER_TOKENS[role]);
    } else if (task.kind === 'conversation-labels') {
      const messages = conversationJudgeMessages(design.taxonomy, task.record);
      entry.inputTokens += estimatedMessageTokens(messages);
      // Each turn's entry, its key and braces about as long as a turn's own answer.
      for (const turn of task.record.turns) entry.outputTokens += Math.min(design.sampling.maxOutputTokens, ANSWER_TOKENS[turn.role] + TURN_KEY_TOKENS);
    } else {
      const messages = driftProbeMessages(claimOfRecord(task.record), task.record.turns, persuaders.agent(task.record.persuader).prompts);
      entry.inputTokens += estimatedMessageTokens(messages);
      entry.outputTokens += input.driftSampling.maxOutputTokens / 2;
    }
    tally.set(model, entry);
  }
  const pricesOf = (model: string): ModelPrices => {
    const settings = registry.settingsFor(model);
    return findProvider(settings.provider)?.kind === 'sim' ? FREE : settings;
  };
  const byModel = [...tally].map(([model, entry]) => {
    const prices = pricesOf(model);
    const priced = prices.inputUsdPerMillion !== undefined || prices.outputUsdPerMillion !== undefined;
    const costUsd = priced ? (entry.inputTokens * (prices.inputUsdPerMillion ?? 0) + entry.outputTokens * (prices.outputUsdPerMillion ?? 0)) / 1e6 : undefined;
    return {
      model,
      calls: entry.calls,
      inputTokens: Math.round(entry.inputTokens),
      outputTokens: Math.round(entry.outputTokens),
      ...(costUsd === undefined ? {} : { costUsd }),
    };
  });
  return {
    conversations: input.conversations.length,
    turns,
    judges: design.judges,
    labels: turns * design.judges.length,
    labelTasks,
    probes,
    storedInStudy,
    replayable,
    byModel,
    costUsd: byModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
    unpricedModels: byModel.filter((model) => model.costUsd === undefined).map((model) => model.model),
  };
}

/** Whether a task gets its answer from the stored calls alone (every re-ask included). */
async function answersFromStore(
  task: AnalysisTask,
  model: ReturnType<ReturnType<typeof createModelRegistry>['modelFor']>,
  input: AnalysisEstimateInput,
  persuaders: AgentRoster,
): Promise<boolean> {
  try {
    if (task.kind === 'labels') await labelTurn(model, task, input.design.taxonomy, input.design.sampling, input.seed);
    else if (task.kind === 'conversation-labels') await labelConversation(model, task, input.design.taxonomy, input.design.sampling, input.seed);
    else await askRecordDriftProbe(model, task.record, persuaders.agent(task.record.persuader).prompts, input.driftSampling, input.seed);
    return true;
  } catch {
    // The first request the store does not hold ends the replay.
    return false;
  }
}

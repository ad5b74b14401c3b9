import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import { modelIdentity } from '../../models/model-identity.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { estimatedMessageTokens } from '../../models/token-estimate.js';
import { callCostUsd, type Prices } from '../../models/wrappers/with-cost.js';
import { createModelRegistry } from '../../runner/models/model-registry.js';
import { isNotStored, StoredCallReplay, type StoredCalls } from '../tournament/stored-progress.js';
import type { ProtocolAnalysis, ProtocolJudgeItem } from './protocol-analysis.js';
import type { ProtocolAnalysisDesign } from './protocol-analysis-config.js';
import { labelProtocolItem } from './protocol-analysis-study.js';

/**
 * What a protocol analysis study would ask and cost, without asking (`pmiyc analyze --run <a protocol run> --dry-run`):
 * the items a resumed study holds are skipped, each other item's judge call is looked up among the stored calls a
 * run would replay (the same request and seed), and the rest are counted: input tokens from the very requests, the
 * answer's tokens assumed, priced from the config. Nothing is called and nothing is written.
 */

export interface ProtocolAnalysisEstimateInput {
  readonly analysis: ProtocolAnalysis;
  readonly design: ProtocolAnalysisDesign;
  readonly items: readonly ProtocolJudgeItem[];
  readonly seed: number;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The calls a study could replay, scoped as it would (a resumed study's own, and earlier runs' unless --no-cache); none: nothing is looked up. */
  readonly calls?: StoredCalls;
  /** Items the resumed study holds already. */
  readonly isDone?: (item: ProtocolJudgeItem) => boolean;
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
  /** The judge's prices; undefined: it has none. */
  readonly prices: Prices | undefined;
}

export interface ProtocolAnalysisEstimate {
  readonly items: number;
  /** Items the resumed study holds, and items whose call is stored (replayed for free). */
  readonly done: number;
  readonly replayed: number;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the judge has no prices. */
  readonly costUsd?: number;
}

/** Whether the judge's call of an item is stored: asked of a model that answers from the stored calls alone. */
async function isReplayed(input: ProtocolAnalysisEstimateInput, item: ProtocolJudgeItem, replay: ReturnType<typeof createModelRegistry>): Promise<boolean> {
  try {
    await labelProtocolItem(input.analysis, item, replay.modelFor(input.design.judge), { design: input.design, seed: input.seed });
    return true;
  } catch (error) {
    if (isNotStored(error)) return false;
    throw error;
  }
}

/** See the top of this file. */
export async function estimateProtocolAnalysis(input: ProtocolAnalysisEstimateInput): Promise<ProtocolAnalysisEstimate> {
  const { calls } = input;
  const replay = calls ? new StoredCallReplay(calls) : undefined;
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = replay
    ? createModelRegistry(input.config, input.env, {
        decorateFor: (settings) => [replay.layer(identityOf(settings))],
        ...(input.analysis.simulatedProtocol ? { simulatedProtocol: input.analysis.simulatedProtocol } : {}),
      })
    : undefined;
  let done = 0;
  let replayed = 0;
  let inputTokens = 0;
  const outputPerCall = Math.min(input.analysis.answerTokens, input.design.sampling.maxOutputTokens);
  for (const item of input.items) {
    if (input.isDone?.(item)) done += 1;
    else if (registry && (await isReplayed(input, item, registry))) replayed += 1;
    else inputTokens += estimatedMessageTokens(item.messages);
  }
  const callsToMake = input.items.length - done - replayed;
  const usage = { inputTokens: Math.round(inputTokens), outputTokens: callsToMake * outputPerCall };
  const costUsd = input.prices === undefined ? undefined : callCostUsd(usage, input.prices);
  return { items: input.items.length, done, replayed, calls: callsToMake, ...usage, ...(costUsd === undefined ? {} : { costUsd }) };
}

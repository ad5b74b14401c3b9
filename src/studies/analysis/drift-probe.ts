import type { AgreementScore } from '../../domain/agreement-score.js';
import { type ConversationRecord, claimOfRecord } from '../../domain/conversation-record.js';
import { askDriftProbe } from '../../engine/drift-probe.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { AgentPrompts } from '../../protocol/prompt-variants.js';
import type { Sampling } from '../design-parts.js';

/**
 * Whether the record holds a drift probe asked during its run (`pmiyc run --probe-drift` keeps it in
 * the record as `driftProbe`): then `analyze --probe-drift` does not ask it again. Read loosely, so
 * that records without the field (older runs, imported ones) are probed.
 */
export function hasRecordedDriftProbe(record: ConversationRecord): boolean {
  const probe = (record as { readonly driftProbe?: unknown }).driftProbe;
  return probe !== undefined && probe !== null;
}

/** What asking a persuader for its stance after its conversation came to. */
export type DriftOutcome =
  | { readonly status: 'asked'; readonly score: AgreementScore | null; readonly attempts: number; readonly raw: string; readonly callHash: string | null }
  | { readonly status: 'failed'; readonly reason: string; readonly detail: string };

/**
 * Asks the conversation's persuader, with its own view of the whole conversation, where it stands now
 * (engine/drift-probe.ts), as `pmiyc run --probe-drift` would have asked it: the same conversation
 * spec and seeds, from the run's own seed (the study's for an imported record, whose file keeps none),
 * so that both ask the same request. Unusable answers in every attempt give a null score (stored); a
 * call error that survived the retry layer fails the probe (not stored: asked again on resume).
 */
export async function askRecordDriftProbe(
  model: ChatModel,
  record: ConversationRecord,
  prompts: AgentPrompts,
  sampling: Sampling,
  studySeed: number,
  abortSignal?: AbortSignal,
): Promise<DriftOutcome> {
  const spec = {
    claim: claimOfRecord(record),
    persuaderModel: record.persuader,
    persuadeeModel: record.persuadee,
    turns: record.turnsPlanned,
    repetition: record.repetition,
    runSeed: record.runSeed ?? studySeed,
  };
  const outcome = await askDriftProbe({ spec, turns: record.turns, persuader: model, prompts, sampling, ...(abortSignal ? { abortSignal } : {}) });
  if (!outcome.ok) return { status: 'failed', reason: outcome.reason, detail: outcome.detail };
  return { status: 'asked', ...outcome.probe };
}

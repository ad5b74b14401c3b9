import type { JudgeAnswer, JudgeAsk } from '../../engine/protocol-ask.js';
import type { ChatMessage } from '../../models/chat-model.js';
import type { SimulatedProtocol } from '../../models/sim/simulated-protocol.js';
import type { StoredProtocolRecord } from '../protocol-records.js';
import type { StudyRun } from '../run-config.js';

/**
 * What a protocol beside PMIYC's gives `pmiyc analyze` so that another judge labels a run of it again
 * (docs/design/protocols.md, "Another judge of a protocol run"): the items of a run with the judge's request of
 * each, in the protocol's own wording (its judge prompt and reader), and the record kept of each answer. The study
 * that asks them is shared (`protocol-analysis-study.ts`) and names no protocol; the kit's registry finds a run's
 * protocol's analysis (`kit/protocol-registry.ts`). The agreement between the two judges is a reader's side, given
 * by the protocol's outputs (`ProtocolOutputs.judgeAgreement`).
 */

/** One item of a run to label again: its key in the run (the study's record is kept under the same key) and the judge's request. */
export interface ProtocolJudgeItem {
  readonly itemKey: string;
  readonly messages: readonly ChatMessage[];
}

/** A judge's answer once asked: read, or unreadable after every attempt (kept as data, never dropped). */
export type ProtocolJudgeAnswer = Exclude<JudgeAnswer<unknown>, { readonly status: 'failed' }>;

export interface ProtocolAnalysis {
  /** The protocol's name (`config.protocol`). */
  readonly protocol: string;
  /** What the judge labels, in a few words for messages (`the 15 strategies of each conversation`). */
  readonly labels: string;
  /** What an item is, in the plural, as the progress line counts them (`conversations`). */
  readonly unit: string;
  /**
   * The run's items a judge can label, in key order, each record read through the protocol's schema (one it
   * refuses is a DatasetError naming run and item); an item with nothing to judge (no persuader message) left out.
   */
  judgeItems(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolJudgeItem[];
  /** How the judge's answer is asked for and read: its JSON Schema, reader and reminder. */
  readonly ask: JudgeAsk<unknown>;
  /** The judge's sampling when none is typed: the protocol's own judge's. */
  readonly sampling: { readonly temperature: number; readonly maxOutputTokens: number };
  /** Output tokens a dry run assumes of one answer. */
  readonly answerTokens: number;
  /** The record stored of one item's answer (what `ProtocolOutputs.judgeAgreement` reads back). */
  recordOf(judge: string, answer: ProtocolJudgeAnswer): unknown;
  /** The protocol's simulated replies, so that a `sim/` judge answers its requests. */
  readonly simulatedProtocol?: SimulatedProtocol;
}

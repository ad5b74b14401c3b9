import type { ConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { TournamentResults } from '../tournament/tournament-results.js';
import { type CandidateConversation, sampleForAnnotation, type TaskSelection, toCandidate } from './annotation-sample.js';

/** The settings whose conversations annotators may be given: one of them, or both. */
export const ANNOTATION_SETTINGS = ['single', 'multi', 'both'] as const;

/** How conversations are chosen for annotators, as the command line says it. */
export interface SelectionOptions {
  /** Conversations per (persuader, persuadee) pair. */
  readonly sample?: number;
  /** The same claims for every pair (default 3 subjective, 2 misinformation when `sample` is absent: the paper's design). */
  readonly claimsPerDomain?: { subjective: number; misinformation: number };
  readonly setting: (typeof ANNOTATION_SETTINGS)[number];
  /** Default: the run's seed. */
  readonly seed?: number;
}

/** The selection of `pmiyc annotate export` from its options: one way of choosing, seeded. */
export function selectionOf(options: SelectionOptions, runSeed: number): TaskSelection {
  if (options.sample !== undefined && options.claimsPerDomain !== undefined)
    throw new InputError('--sample and --claims-per-domain choose conversations in two different ways: pass one of them');
  return {
    setting: options.setting,
    seed: options.seed ?? runSeed,
    perPair: options.sample ?? null,
    claimsPerDomain: options.sample === undefined ? (options.claimsPerDomain ?? { subjective: 3, misinformation: 2 }) : null,
  };
}

/** Two passes over the run's completed conversations: the candidates, then the chosen records. */
export function chooseRecords(store: Pick<TournamentResults, 'conversations'>, runId: number, runName: string, selection: TaskSelection) {
  const candidates: CandidateConversation[] = [];
  for (const record of store.conversations(runId, 'completed')) candidates.push(toCandidate(record));
  const sample = sampleForAnnotation(candidates, selection);
  if (sample.conversationIds.length === 0) {
    const setting = selection.setting === 'both' ? '' : `${selection.setting}-turn `;
    throw new InputError(`run ${runName} has no completed ${setting}conversations to annotate: pick another --run${setting ? ' or --setting both' : ''}`);
  }
  const wanted = new Set(sample.conversationIds);
  const records: ConversationRecord[] = [];
  for (const record of store.conversations(runId, 'completed')) if (wanted.has(record.conversationId)) records.push(record);
  return { sample, records };
}

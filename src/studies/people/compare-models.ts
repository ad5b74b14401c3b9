import { type ConversationRecord, conversationId, toConversationRecord } from '../../domain/conversation-record.js';
import { runConversation } from '../../engine/run-conversation.js';
import type { ChatModel } from '../../models/chat-model.js';
import { type PeopleDesign, peopleSideSpec } from './people-design.js';

export interface CompareProgress {
  planned: number;
  stored: number;
  failed: number;
}

export interface CompareInput {
  readonly design: PeopleDesign;
  /** The models that play the person's side (`--compare`). */
  readonly models: readonly string[];
  readonly modelFor: (name: string) => ChatModel;
  readonly runName: string;
  readonly isStored: (conversationId: string) => boolean;
  readonly save: (record: ConversationRecord) => Promise<void>;
  readonly abortSignal: AbortSignal;
  readonly tell?: (line: string) => void;
}

/**
 * `--compare`: the opponent against each named model in the person's place, once on every claim of
 * the study, stored in the study's own run as ordinary conversations (so the run has both people and
 * models on the same claims). Conversations already stored are skipped: a restart does only the rest.
 * The session's gate and concurrency hold these calls like any run's.
 */
export function runComparisons(input: CompareInput): { readonly progress: CompareProgress; readonly done: Promise<void> } {
  const { design } = input;
  const progress: CompareProgress = { planned: input.models.length * design.claims.length, stored: 0, failed: 0 };
  const work = input.models.flatMap((model) => design.claims.map((claim) => peopleSideSpec(design, model, claim)));
  const one = async (spec: (typeof work)[number]) => {
    if (input.isStored(conversationId(spec))) {
      progress.stored += 1;
      return;
    }
    const persuader = input.modelFor(spec.persuaderModel);
    const persuadee = input.modelFor(spec.persuadeeModel);
    const outcome = await runConversation({ spec, persuader, persuadee, sampling: design.sampling, abortSignal: input.abortSignal });
    if (outcome.status === 'partial') return;
    await input.save(toConversationRecord(input.runName, spec, outcome, { persuader: persuader.simulated, persuadee: persuadee.simulated }));
    progress.stored += 1;
    if (outcome.status === 'failed') progress.failed += 1;
  };
  const done = Promise.all(
    work.map((spec) =>
      one(spec).catch((error: unknown) => {
        if (!input.abortSignal.aborted) input.tell?.(`a --compare conversation stopped on an error: ${String(error)}`);
      }),
    ),
  ).then(() => {
    if (progress.planned > 0 && !input.abortSignal.aborted) {
      input.tell?.(
        `--compare: ${progress.stored} of ${progress.planned} model conversations stored${progress.failed > 0 ? ` (${progress.failed} failed)` : ''}`,
      );
    }
  });
  return { progress, done };
}

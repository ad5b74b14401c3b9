import { deriveSeed, hashString } from '../../domain/random.js';
import { askJudge } from '../../engine/protocol-ask.js';
import type { ChatModel } from '../../models/chat-model.js';
import { openStudySession, type StudyRunInput } from '../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, sessionFacts } from '../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import type { ProtocolRecords } from '../protocol-records.js';
import type { StudyRun } from '../run-config.js';
import type { ProtocolAnalysis, ProtocolJudgeItem } from './protocol-analysis.js';
import type { ProtocolAnalysisDesign } from './protocol-analysis-config.js';

/**
 * A protocol analysis study (`pmiyc analyze --run <a protocol run> --judge MODEL`; docs/design/protocols.md, "Another
 * judge of a protocol run"): one judge labels every item of a protocol run again (or a seeded sample), with the
 * protocol's own request and reader, in one session of a run of its own (call cache, replay, budget, lease,
 * progress). Each answer's record is stored at once under the item's key; a resumed study skips the stored ones.
 */

export interface RunProtocolAnalysisInput extends StudyRunInput {
  readonly store: RunRecords & { readonly protocolRecords: ProtocolRecords };
  readonly analysis: ProtocolAnalysis;
  readonly design: ProtocolAnalysisDesign;
  /** The protocol run whose items are labelled again. */
  readonly studiedRun: StudyRun;
  /** Told once per item whose judge call failed after its retries (not stored; asked again on resume). */
  readonly onFailedItem?: (item: ProtocolJudgeItem, reason: string, detail: string) => void;
}

export interface ProtocolAnalysisOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  /** The items labelled by the study (after --sample). */
  readonly items: number;
  /** Answers stored this session that could not be read after every attempt. */
  readonly unread: number;
  readonly ending: SessionEnding;
}

/** The items a study labels: every one, or a seeded sample of `sample` chosen by a hash of the seed and key (the same on resume). */
function protocolItemsToLabel(items: readonly ProtocolJudgeItem[], sample: number | undefined, seed: number): ProtocolJudgeItem[] {
  if (sample === undefined || sample >= items.length) return [...items];
  const rank = (item: ProtocolJudgeItem) => hashString(`${seed}\u001f${item.itemKey}`);
  const chosen = new Set(
    [...items]
      .sort((a, b) => rank(a) - rank(b) || a.itemKey.localeCompare(b.itemKey))
      .slice(0, sample)
      .map((item) => item.itemKey),
  );
  return items.filter((item) => chosen.has(item.itemKey));
}

/** The items of the studied run a study labels, read from the store (every record through the protocol's schema). */
export function studiedItems(
  store: { readonly protocolRecords: Pick<ProtocolRecords, 'list'> },
  analysis: ProtocolAnalysis,
  studiedRun: StudyRun,
  design: Pick<ProtocolAnalysisDesign, 'sample'>,
  seed: number,
): ProtocolJudgeItem[] {
  return protocolItemsToLabel(analysis.judgeItems(studiedRun, store.protocolRecords.list(studiedRun.id)), design.sample, seed);
}

/**
 * Asks the judge for one item's labels, each attempt seeded by what the call is (the study's seed, the protocol, the
 * judge, the item), so a second study replays every call. A failed call is `failed`; an unreadable answer is data.
 */
export async function labelProtocolItem(
  analysis: ProtocolAnalysis,
  item: ProtocolJudgeItem,
  judge: ChatModel,
  settings: { readonly design: ProtocolAnalysisDesign; readonly seed: number; readonly abortSignal?: AbortSignal },
) {
  const seedOf = (attempt: number) => deriveSeed(settings.seed, ['protocol-analysis', analysis.protocol, settings.design.judge, item.itemKey, attempt]);
  return askJudge(judge, item.messages, settings.design.sampling, seedOf, analysis.ask, settings.abortSignal);
}

async function runItem(input: RunProtocolAnalysisInput, session: RunSession, item: ProtocolJudgeItem, counts: { unread: number }): Promise<'done' | 'failed'> {
  const { design, analysis } = input;
  const answer = await labelProtocolItem(analysis, item, session.registry.modelFor(design.judge), {
    design,
    seed: session.run.seed,
    abortSignal: session.signals.abort,
  });
  if (answer.status === 'failed') {
    session.meter.conversationsFailed += 1;
    input.onFailedItem?.(item, answer.reason, answer.detail);
    return 'failed';
  }
  if (answer.status === 'unread') counts.unread += 1;
  input.store.protocolRecords.add(session.run.id, item.itemKey, analysis.recordOf(design.judge, answer));
  session.meter.conversationsDone += 1;
  return 'done';
}

/** Runs (or resumes) a protocol analysis study: see the top of this file. */
export async function runProtocolAnalysisStudy(input: RunProtocolAnalysisInput): Promise<ProtocolAnalysisOutcome> {
  const { store, analysis, design, studiedRun } = input;
  const command = 'pmiyc analyze';
  // The items are read whole before any work (the store is written while the tasks run); a resume is given the study's own seed.
  const items = studiedItems(store, analysis, studiedRun, design, input.seed);
  const session = await openStudySession(store, input, {
    run: {
      kind: 'protocol-analysis',
      prefix: 'agreement',
      nameFlag: '--study',
      noun: 'analysis study',
      howToStart: `start one with ${command} --run ${studiedRun.name} --judge MODEL`,
      create: (models) => ({
        config: {
          command: 'protocol-analysis',
          protocol: analysis.protocol,
          studiedRun: studiedRun.name,
          design,
          simulated: models.stored[design.judge]?.provider === 'sim' ? [design.judge] : [],
          models: models.stored,
        },
        plannedConversations: items.length,
      }),
    },
    models: [design.judge],
    ...(analysis.simulatedProtocol ? { simulatedProtocol: analysis.simulatedProtocol } : {}),
    unit: analysis.unit,
    total: items.length,
    command: input.resume ? `${command} --resume` : command,
  });
  const { run } = session;
  const counts = { unread: 0 };
  let result: TasksResult;
  let ending: SessionEnding;
  try {
    result = await runTasks({
      tasks: items,
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: (item) => store.protocolRecords.has(run.id, item.itemKey),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      run: (item) => runItem(input, session, item, counts),
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, items: items.length, unread: counts.unread, ending, ...sessionFacts(session) };
}

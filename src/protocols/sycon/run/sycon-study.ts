import { createHash } from 'node:crypto';
import { openStudySession, type StudyRunInput } from '../../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, sessionFacts } from '../../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../../runner/session-ending.js';
import type { ProtocolRecords } from '../../../studies/protocol-records.js';
import { syconSimulatedProtocol } from '../sim/sycon-simulated.js';
import { runSyconConversation } from '../sycon-conversation.js';
import type { SyconConversationOutcome, SyconFailure } from '../sycon-outcome.js';
import type { SyconConversationPlan } from '../sycon-plan.js';
import { syconPersuadeeSystemPrompt } from '../sycon-prompts.js';
import { type SyconQuestion, stanceOf } from '../sycon-questions.js';
import { SYCON_PROTOCOL, type SyconDesign, syconModelsOf } from './sycon-design.js';
import { type SyconItem, type SyconRecord, syconItemKey } from './sycon-record.js';

/**
 * A SYCON run (docs/design/protocols.md, "SYCON-Bench"): every model under test, under every defence, on every
 * question, `repetitions` times, each a conversation pushed on for the run's pressure turns and judged reply by reply,
 * in one session of the run (call cache, replay, budget, lease, progress). Each finished conversation's record is
 * stored at once; a resumed run skips the stored ones and asks again only what is missing.
 */

export interface RunSyconInput extends StudyRunInput {
  readonly store: RunRecords & { readonly protocolRecords: ProtocolRecords };
  readonly design: SyconDesign;
  /** The run's questions, selected, settings in order. */
  readonly questions: readonly SyconQuestion[];
  /** What the questions were read from, in words, for a resume's message. */
  readonly questionSource: string;
  /** Told once per conversation that could not be completed. */
  readonly onFailedConversation?: (task: SyconTask, failure: SyconFailure) => void;
}

/** One conversation of the run: its item and its plan. */
export interface SyconTask extends SyconItem {
  readonly plan: SyconConversationPlan;
}

export interface SyconStudyOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  readonly ending: SessionEnding;
}

/**
 * Every conversation of the run, read lazily: question by question, repetition by repetition, defence by defence,
 * model by model, so the models' calls interleave and the defences of a question are asked side by side.
 */
export function* planSyconTasks(design: SyconDesign, questions: readonly SyconQuestion[], runSeed: number): Generator<SyconTask> {
  for (const question of questions) {
    for (let repetition = 0; repetition < design.repetitions; repetition++) {
      for (const defence of design.defences.list) {
        for (const persuadee of design.persuadees) {
          const plan: SyconConversationPlan = { question, defence, pressureTurns: design.pressureTurns, repetition, runSeed };
          yield { persuadee, defence: defence.name, setting: question.setting, questionIndex: question.index, repetition, plan };
        }
      }
    }
  }
}

/** A checksum of the questions' content and order: a resumed run must see the same questions. */
function syconQuestionsChecksum(questions: readonly SyconQuestion[]): string {
  const hash = createHash('sha256');
  for (const question of questions) hash.update(JSON.stringify(question));
  return hash.digest('hex');
}

/** The record of a completed conversation. */
function syconRecordOf(design: SyconDesign, task: SyconTask, outcome: Extract<SyconConversationOutcome, { status: 'completed' }>): SyconRecord {
  const { question, defence } = task.plan;
  return {
    persuadee: task.persuadee,
    defence: task.defence,
    setting: task.setting,
    questionIndex: task.questionIndex,
    repetition: task.repetition,
    judge: design.judge,
    ...(design.persuader ? { persuader: design.persuader } : {}),
    systemPrompt: syconPersuadeeSystemPrompt(defence.systemPrompt, question),
    question: question.question,
    stance: stanceOf(question),
    ...(question.setting === 'false-presupposition' ? { presupposition: question.presupposition } : {}),
    pressureTurns: design.pressureTurns,
    turns: outcome.turns,
  };
}

async function runTask(input: RunSyconInput, session: RunSession, task: SyconTask): Promise<'done' | 'failed'> {
  const { design } = input;
  const model = (name: string) => session.registry.modelFor(name);
  const outcome = await runSyconConversation({
    plan: task.plan,
    models: { persuadee: model(task.persuadee), judge: model(design.judge), ...(design.persuader ? { persuader: model(design.persuader) } : {}) },
    sampling: design.sampling,
    judgeSampling: { ...design.sampling, temperature: design.judgeTemperature },
    abortSignal: session.signals.abort,
  });
  if (outcome.status === 'failed') {
    session.meter.conversationsFailed += 1;
    input.onFailedConversation?.(task, outcome.failure);
    return 'failed';
  }
  input.store.protocolRecords.add(session.run.id, syconItemKey(task), syconRecordOf(design, task, outcome));
  session.meter.conversationsDone += 1;
  return 'done';
}

/** Runs (or resumes) a SYCON run: see the top of this file. */
export async function runSyconStudy(input: RunSyconInput): Promise<SyconStudyOutcome> {
  const { store, design, questions } = input;
  const total = design.persuadees.length * design.defences.list.length * questions.length * design.repetitions;
  const session = await openStudySession(store, input, {
    run: {
      kind: 'protocol',
      prefix: 'sycon',
      nameFlag: '--run',
      noun: 'SYCON-Bench run',
      howToStart: 'start one with pmiyc run --protocol sycon --models a,b --judge c',
      content: { noun: 'questions', source: input.questionSource, checksum: syconQuestionsChecksum(questions) },
      create: (models) => ({
        config: {
          command: 'protocol',
          protocol: SYCON_PROTOCOL,
          design,
          simulated: syconModelsOf(design).filter((name) => models.stored[name]?.provider === 'sim'),
          // The models' sampling, for the report's What ran (the judge answers at the design's judgeTemperature).
          sampling: design.sampling,
          models: models.stored,
        },
        plannedConversations: total,
      }),
    },
    models: syconModelsOf(design),
    // The run's sim/ agents answer SYCON's requests (below the call cache: replayed and resumed as every call).
    simulatedProtocol: syconSimulatedProtocol(design.defences.list),
    unit: 'conversations',
    total,
    command: input.resume ? 'pmiyc run --protocol sycon --resume' : 'pmiyc run --protocol sycon',
  });
  const { run } = session;
  let result: TasksResult;
  let ending: SessionEnding;
  try {
    result = await runTasks({
      tasks: planSyconTasks(design, questions, run.seed),
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: (task) => store.protocolRecords.has(run.id, syconItemKey(task)),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      run: (task) => runTask(input, session, task),
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, ending, ...sessionFacts(session) };
}

import { createHash } from 'node:crypto';
import { type ProtocolRunInput, type ProtocolStudyOutcome, runProtocolStudy } from '../../../studies/protocol-study.js';
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

export interface RunSyconInput extends ProtocolRunInput<SyconTask, SyconFailure> {
  readonly design: SyconDesign;
  /** The run's questions, selected, settings in order. */
  readonly questions: readonly SyconQuestion[];
  /** What the questions were read from, in words, for a resume's message. */
  readonly questionSource: string;
}

/** One conversation of the run: its item and its plan. */
export interface SyconTask extends SyconItem {
  readonly plan: SyconConversationPlan;
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

/** Runs (or resumes) a SYCON run: see the top of this file. */
export function runSyconStudy(input: RunSyconInput): Promise<ProtocolStudyOutcome> {
  const { design, questions } = input;
  return runProtocolStudy(input, {
    protocol: SYCON_PROTOCOL,
    noun: 'SYCON-Bench run',
    command: 'pmiyc run --protocol sycon',
    howToStart: 'start one with pmiyc run --protocol sycon --models a,b --judge c',
    content: { noun: 'questions', source: input.questionSource, checksum: syconQuestionsChecksum(questions) },
    design,
    // The models' sampling, for the report's What ran (the judge answers at the design's judgeTemperature).
    sampling: design.sampling,
    models: syconModelsOf(design),
    simulatedProtocol: syconSimulatedProtocol(design.defences.list),
    total: design.persuadees.length * design.defences.list.length * questions.length * design.repetitions,
    tasks: (runSeed) => planSyconTasks(design, questions, runSeed),
    itemKey: syconItemKey,
    converse: (task, modelFor, abortSignal) =>
      runSyconConversation({
        plan: task.plan,
        models: { persuadee: modelFor(task.persuadee), judge: modelFor(design.judge), ...(design.persuader ? { persuader: modelFor(design.persuader) } : {}) },
        sampling: design.sampling,
        judgeSampling: { ...design.sampling, temperature: design.judgeTemperature },
        abortSignal,
      }),
    recordOf: (task, outcome) => syconRecordOf(design, task, outcome),
  });
}

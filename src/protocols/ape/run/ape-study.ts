import { createHash } from 'node:crypto';
import { createRandom, deriveSeed } from '../../../domain/random.js';
import type { ChatModel } from '../../../models/chat-model.js';
import { type ProtocolRunInput, type ProtocolStudyOutcome, runProtocolStudy } from '../../../studies/protocol-study.js';
import { type ApeConversationInput, runApeConversation } from '../ape-conversation.js';
import type { ApeConversationOutcome, ApeFailure } from '../ape-outcome.js';
import { type ApeConversationPlan, type ApeStart, drawApeStart } from '../ape-plan.js';
import type { ApeTopic } from '../ape-topics.js';
import { apeSimulatedProtocol } from '../sim/ape-simulated.js';
import { APE_PROTOCOL, type ApeDesign, apeModelsOf, apePersuaderAgent } from './ape-design.js';
import { type ApeItem, type ApeRecord, apeItemKey } from './ape-record.js';

/**
 * An APE run (docs/design/protocols.md): every persuader on every topic, `repetitions` times, each a conversation
 * with the run's persuadee, judged by its evaluator (and refusal check), in one session of the run (call cache,
 * replay, budget, lease, progress). Each finished conversation's record is stored at once; a resumed run skips
 * the stored ones and asks again only what is missing (a conversation that failed or was cut short replays the
 * calls it had made).
 */

export interface RunApeInput extends ProtocolRunInput<ApeTask, ApeFailure> {
  readonly design: ApeDesign;
  /** The run's topics, selected (`selectApeTopics`), in file order. */
  readonly topics: readonly ApeTopic[];
  /** What the topics were read from, in words (a file's path, the pinned file's title), for a resume's message. */
  readonly topicSource: string;
}

/** One conversation of the run: its item (`persuader` is the agent's name), the persuader's model, its topic and its plan. */
export interface ApeTask extends ApeItem {
  readonly persuaderModel: string;
  readonly topic: ApeTopic;
  readonly plan: ApeConversationPlan;
  readonly drawnDegree: number;
}

/** The start of a topic's repetition, drawn from the run seed: the same for every persuader, so persuaders are compared on the same starts. */
function apeStartOf(runSeed: number, topicIndex: number, repetition: number): ApeStart {
  return drawApeStart(createRandom(deriveSeed(runSeed, ['ape-start', topicIndex, repetition])));
}

/** Every conversation of the run, read lazily: topic by topic, repetition by repetition, persuader by persuader, so the persuaders' calls interleave. */
export function* planApeTasks(design: ApeDesign, topics: readonly ApeTopic[], runSeed: number): Generator<ApeTask> {
  const persuaders = design.persuaders.map((name) => apePersuaderAgent(design, name));
  for (const topic of topics) {
    for (let repetition = 0; repetition < design.repetitions; repetition++) {
      const start = apeStartOf(runSeed, topic.index, repetition);
      for (const agent of persuaders) {
        const plan: ApeConversationPlan = {
          topicKey: `${topic.index}:${topic.category}:${topic.shortTitle}`,
          statement: topic.text,
          startingBelief: start.startingBelief,
          direction: start.direction,
          ...(design.statedDegree ? { degree: start.degree } : {}),
          ...(agent.system === undefined ? {} : { persuaderVariant: { agent: agent.name, system: agent.system } }),
          turns: design.turns,
          repetition,
          runSeed,
        };
        yield { persuader: agent.name, persuaderModel: agent.model, topicIndex: topic.index, repetition, topic, plan, drawnDegree: start.degree };
      }
    }
  }
}

/** A checksum of the topics' content and order: a resumed run must see the same topics. */
export function apeTopicsChecksum(topics: readonly ApeTopic[]): string {
  const hash = createHash('sha256');
  for (const topic of topics) hash.update(JSON.stringify([topic.index, topic.category, topic.shortTitle, topic.text]));
  return hash.digest('hex');
}

/** The record of a completed conversation. */
function apeRecordOf(design: ApeDesign, task: ApeTask, outcome: Extract<ApeConversationOutcome, { status: 'completed' }>): ApeRecord {
  const { topic, plan } = task;
  return {
    persuader: task.persuader,
    topicIndex: task.topicIndex,
    repetition: task.repetition,
    persuadee: design.persuadee,
    evaluator: design.evaluator,
    ...(design.refusalCheck ? { refusalCheck: design.refusalCheck } : {}),
    category: topic.category,
    shortTitle: topic.shortTitle,
    statement: topic.text,
    startingBelief: plan.startingBelief,
    direction: plan.direction,
    ...(plan.degree === undefined ? {} : { degree: plan.degree }),
    drawnDegree: task.drawnDegree,
    opening: outcome.opening,
    turns: outcome.turns,
  };
}

/** The models of one conversation of the run, each by its name (a dry run's replay asks the same ones). */
export function apeConversationModels(
  design: ApeDesign,
  task: Pick<ApeTask, 'persuaderModel'>,
  modelFor: (name: string) => ChatModel,
): ApeConversationInput['models'] {
  return {
    persuader: modelFor(task.persuaderModel),
    persuadee: modelFor(design.persuadee),
    evaluator: modelFor(design.evaluator),
    ...(design.refusalCheck ? { refusalCheck: modelFor(design.refusalCheck) } : {}),
  };
}

/** The run's simulated agents by every name its records give them: each simulated model, and each persuader under a variant of one. */
function simulatedNamesOf(design: ApeDesign, isSimulated: (model: string) => boolean): string[] {
  const names = new Set([...apeModelsOf(design), ...design.persuaders]);
  return [...names].filter((name) => isSimulated(apePersuaderAgent(design, name).model));
}

/** Runs (or resumes) an APE run: see the top of this file. */
export function runApeStudy(input: RunApeInput): Promise<ProtocolStudyOutcome> {
  const { design, topics } = input;
  return runProtocolStudy(input, {
    protocol: APE_PROTOCOL,
    noun: 'APE run',
    command: 'pmiyc run --protocol ape',
    howToStart: 'start one with pmiyc run --protocol ape --models a,b --persuadee c --evaluator d',
    content: { noun: 'topics', source: input.topicSource, checksum: apeTopicsChecksum(topics) },
    design,
    sampling: design.sampling,
    models: apeModelsOf(design),
    simulatedNames: (isSimulated) => simulatedNamesOf(design, isSimulated),
    simulatedProtocol: apeSimulatedProtocol(topics),
    total: design.persuaders.length * topics.length * design.repetitions,
    tasks: (runSeed) => planApeTasks(design, topics, runSeed),
    itemKey: apeItemKey,
    converse: (task, modelFor, abortSignal) =>
      runApeConversation({ plan: task.plan, models: apeConversationModels(design, task, modelFor), sampling: design.sampling, abortSignal }),
    recordOf: (task, outcome) => apeRecordOf(design, task, outcome),
  });
}

import { type Random, randomIndex } from '../../../domain/random.js';
import type { ChatMessage, GenerateRequest } from '../../../models/chat-model.js';
import type { SimProfile } from '../../../models/sim/sim-profile.js';
import type { SimulatedProtocol } from '../../../models/sim/simulated-protocol.js';
import { isPersusafetyJudgeSystemPrompt, readPersusafetyJudgedMessages } from '../conversation/persusafety-judge.js';
import { PERSUSAFETY_TASK_PROBE_REQUEST, persusafetyAgentOfSystemPrompt, readPersusafetyPersuaderPrompt } from '../conversation/persusafety-prompts.js';
import type { PersusafetyRunScene } from '../run/persusafety-run-scenes.js';
import { persusafetySimMark, readPersusafetySimMark } from './persusafety-sim-marks.js';
import {
  PERSUSAFETY_SIM_NAMESPACE,
  PERSUSAFETY_SIM_STRATEGY_IDS,
  type PersusafetyPlantedRates,
  type PersusafetySimLevel,
  plantedDecisionChances,
  plantedRefusal,
  plantedStrategyUse,
  readPersusafetyPlantedRates,
} from './persusafety-sim-traits.js';

/**
 * PersuSafety's simulated agents (docs/design/simulated-agents.md, "Protocols"): the replies a `sim/` model gives to
 * PersuSafety's requests, handed to the run's simulated agents as a `SimulatedProtocol`. A persuader declines the
 * task by its planted chance for the scene's harmfulness level; in a conversation it draws on its first message
 * which strategies it uses (each by its planted chance, with the profile shown or hidden) and marks every message
 * with them; the judge scores 2 what the marks name and 0 the rest (wrong with the profile's `labelError` chance);
 * the persuadee accepts, rejects or stays undecided on each reply by its chances. Every reply is drawn from the
 * request's seed alone, and a scene's two conditions draw the same seeds: their draws are paired.
 */

/** What a simulated agent writes for an answer the protocol cannot read (the profile's `malformed` chance). */
const UNREADABLE = '[simulated] I would rather not put that in the form you asked for.';

const systemOf = (messages: readonly ChatMessage[]) => messages.find((message) => message.role === 'system')?.content ?? '';
const pick = (random: Random, texts: readonly string[]) => texts[randomIndex(random, texts.length)]!;

/** The persuader's answer to the task probe: declines by its planted chance at the scene's level. */
function taskProbeReply(rates: PersusafetyPlantedRates, level: PersusafetySimLevel, profile: SimProfile, random: Random): string {
  if (random() < profile.malformed) return UNREADABLE;
  return random() < plantedRefusal(rates, level) ? '[simulated] I will not play this part.\nTask: decline' : '[simulated] I can play this part.\nTask: accept';
}

/** The persuader's next message: on its first, the strategies it draws; later, those its first message marked. */
function persuaderMessage(messages: readonly ChatMessage[], rates: PersusafetyPlantedRates, profileShown: boolean, random: Random): string {
  const first = messages.find((message) => message.role === 'assistant');
  const drawn = PERSUSAFETY_SIM_STRATEGY_IDS.filter((id) => random() < plantedStrategyUse(rates, id, profileShown));
  const strategies = (first && readPersusafetySimMark(first.content)) ?? drawn;
  const text = pick(random, ['Hear me out on this.', 'I think you will want to agree to this.', 'Let me make my request plainly.']);
  return `[simulated] ${persusafetySimMark(strategies)} ${text}`;
}

function persuaderReply(
  messages: readonly ChatMessage[],
  profile: SimProfile,
  rates: PersusafetyPlantedRates,
  levelOf: (task: string) => PersusafetySimLevel,
  random: Random,
) {
  const prompt = readPersusafetyPersuaderPrompt(systemOf(messages));
  if (prompt === undefined) return undefined;
  if (messages.at(-1)?.content === PERSUSAFETY_TASK_PROBE_REQUEST) return taskProbeReply(rates, levelOf(prompt.task), profile, random);
  return persuaderMessage(messages, rates, prompt.profileShown, random);
}

/** The persuadee's reply with its decision, drawn by its chances of accepting and rejecting. */
function persuadeeReply(profile: SimProfile, rates: PersusafetyPlantedRates, random: Random): string {
  if (random() < profile.malformed) return UNREADABLE;
  const { accept, reject } = plantedDecisionChances(rates, profile.susceptibility);
  const draw = random();
  if (draw < accept) return '[simulated] Fine, you have convinced me.\nDecision: accept';
  if (draw < accept + reject) return '[simulated] No, I will not do that.\nDecision: reject';
  return '[simulated] I am not sure yet; tell me more.\nDecision: undecided';
}

/** The judge's JSON: 2 for each strategy the persuader's marks name, 0 for the rest, each flipped with the `labelError` chance. */
function judgeReply(messages: readonly ChatMessage[], profile: SimProfile, random: Random): string | undefined {
  const judged = readPersusafetyJudgedMessages(messages.find((message) => message.role === 'user')?.content ?? '');
  if (judged === undefined) return undefined;
  if (random() < profile.malformed) return UNREADABLE;
  const used = new Set(judged.flatMap((message) => readPersusafetySimMark(message) ?? []));
  const scores = PERSUSAFETY_SIM_STRATEGY_IDS.map((id) => {
    const said = used.has(id) !== random() < profile.labelError;
    return [id, { score: said ? 2 : 0, rationale: `[simulated] ${used.has(id) ? 'marked as used' : 'not marked'}` }] as const;
  });
  return JSON.stringify(Object.fromEntries(scores));
}

/** PersuSafety's simulated replies for a run over `scenes` (a persuader's scene is looked up by its task, which its prompt states; an unknown task counts as neutral). */
export function persusafetySimulatedProtocol(scenes: readonly PersusafetyRunScene[]): SimulatedProtocol {
  const levels = new Map<string, PersusafetySimLevel>();
  for (const { scene } of scenes) if (!levels.has(scene.task)) levels.set(scene.task, scene.harmfulness ?? 'neutral');
  const planted = new WeakMap<SimProfile, PersusafetyPlantedRates>();
  const ratesOf = (profile: SimProfile) => {
    let rates = planted.get(profile);
    if (rates === undefined) {
      rates = readPersusafetyPlantedRates(profile.name, profile.protocolTraits ?? {});
      planted.set(profile, rates);
    }
    return rates;
  };
  return {
    namespace: PERSUSAFETY_SIM_NAMESPACE,
    checkTraits: (modelName, traits) => {
      readPersusafetyPlantedRates(modelName, traits);
    },
    reply: (request: GenerateRequest, profile: SimProfile, random: Random) => {
      const { messages } = request;
      const systemPrompt = systemOf(messages);
      if (isPersusafetyJudgeSystemPrompt(systemPrompt)) return judgeReply(messages, profile, random);
      const agent = persusafetyAgentOfSystemPrompt(systemPrompt);
      if (agent === 'persuader') return persuaderReply(messages, profile, ratesOf(profile), (task) => levels.get(task) ?? 'neutral', random);
      if (agent === 'persuadee') return persuadeeReply(profile, ratesOf(profile), random);
      return undefined;
    },
  };
}

import { clamp } from '../../../domain/numbers.js';
import { type Random, randomIndex, randomNormal } from '../../../domain/random.js';
import type { ChatMessage, GenerateRequest } from '../../../models/chat-model.js';
import type { SimProfile } from '../../../models/sim/sim-profile.js';
import type { SimulatedProtocol } from '../../../models/sim/simulated-protocol.js';
import { APE_DEFAULTS, APE_DEGREE_SCALE, APE_TURN_CLASSES, type ApeCategory, type ApeTurnClass } from '../ape-facts.js';
import { readPersuaderShownToPersuadee } from '../ape-messages.js';
import { type ApePersuaderBrief, apeRoleOfSystemPrompt, readApeEvaluatorRequest, readApePersuadeeBrief, readApePersuaderBrief } from '../ape-prompts.js';
import { isApeRefusalCheckSystemPrompt, readApeRefusalCheckAnswer } from '../ape-refusal-check.js';
import { parseApeBelief } from '../ape-replies.js';
import { type ApeSimTurn, apeSimMark, readApeTurn } from './ape-sim-marks.js';
import { APE_SIM_NAMESPACE, type ApePlantedRates, apePlantedChances, readApePlantedRates } from './ape-sim-traits.js';

/**
 * APE's simulated agents (docs/design/simulated-agents.md, "Protocols"): the replies a `sim/` model gives to APE's
 * requests, handed to the run's simulated agents as a `SimulatedProtocol`. A persuader refuses, makes no attempt
 * or attempts by its planted chances for the turn and the topic's category (ape-sim-traits.ts) and marks which
 * (ape-sim-marks.ts); the evaluator and the refusal check answer their JSON as the mark says (wrong with the
 * profile's `labelError` chance); the persuadee opens with its view and moves its belief toward the persuader's
 * aim when it attempted, by its `susceptibility`. Every reply is drawn from the request's seed alone.
 */

/** The share of the way to the end of the scale a fully susceptible persuadee moves after one full attempt. */
const PULL_PER_ATTEMPT = 0.3;
/** How much less a degree-0 attempt moves a persuadee than a full one. */
const LOW_EFFORT_PULL = 0.25;
/** The spread of a persuadee's move after an attempt, in belief points. */
const MOVE_SD = 3;

const systemOf = (messages: readonly ChatMessage[]) => messages.find((message) => message.role === 'system')?.content ?? '';
const firstUserOf = (messages: readonly ChatMessage[]) => messages.find((message) => message.role === 'user')?.content ?? '';
const pick = (random: Random, texts: readonly string[]) => texts[randomIndex(random, texts.length)]!;

/** What a simulated agent writes for an answer the protocol cannot read (the profile's `malformed` chance). */
const UNREADABLE = '[simulated] I would rather not put that in the form you asked for.';

function persuaderText(turnClass: ApeTurnClass, brief: ApePersuaderBrief, random: Random): string {
  if (turnClass === 'refusal') return pick(random, ["I won't try to change your mind on this one.", 'I would rather not argue for that.']);
  if (turnClass === 'no-attempt')
    return pick(random, ['Thanks for telling me how you see it. How has your week been?', 'That is your call to make; I have nothing to add.']);
  const way = brief.direction === 'into' ? 'there are good reasons to think it is true' : 'the case for it does not hold up';
  return `${pick(random, ['Consider this:', 'Think about it this way:'])} on "${brief.statement}", ${way}.`;
}

/** The persuader's message of its next turn: refusal, no attempt or attempt by its planted chances there. */
function persuaderReply(messages: readonly ChatMessage[], rates: ApePlantedRates, categoryOf: (statement: string) => ApeCategory | undefined, random: Random) {
  const brief = readApePersuaderBrief(systemOf(messages));
  if (brief === undefined) return undefined;
  const turn = messages.filter((message) => message.role === 'assistant').length + 1;
  const { refuse, noAttempt } = apePlantedChances(rates, categoryOf(brief.statement), turn);
  const draw = random();
  const turnClass: ApeTurnClass = draw < refuse ? 'refusal' : draw < refuse + noAttempt ? 'no-attempt' : 'attempt';
  const mark = apeSimMark({ turnClass, direction: brief.direction, degree: brief.degree ?? APE_DEGREE_SCALE.highest });
  return `[simulated] ${mark} ${persuaderText(turnClass, brief, random)}`;
}

/** The class a judge says: the one read, or with the `labelError` chance one of the other two. */
function saidClass(read: ApeTurnClass, labelError: number, random: Random): ApeTurnClass {
  if (!(random() < labelError)) return read;
  const others = APE_TURN_CLASSES.filter((turnClass) => turnClass !== read);
  return others[randomIndex(random, others.length)]!;
}

/** The evaluator's JSON for the latest persuader message of its request (first user message; a re-ask repeats it). */
function evaluatorReply(messages: readonly ChatMessage[], profile: SimProfile, random: Random): string | undefined {
  const request = readApeEvaluatorRequest(firstUserOf(messages));
  if (request === undefined) return undefined;
  if (random() < profile.malformed) return UNREADABLE;
  const read = readApeTurn(request.latest, request.direction);
  const turnClass = saidClass(read.turnClass, profile.labelError, random);
  const degree = turnClass === 'attempt' ? (read.degree ?? APE_DEGREE_SCALE.highest) : APE_DEGREE_SCALE.lowest;
  const why = turnClass === read.turnClass ? `read as ${read.turnClass}` : `read as ${read.turnClass}, said ${turnClass} (a planted label error)`;
  return JSON.stringify({ reasoning: `[simulated] ${why}`, class: turnClass, degree });
}

/** The refusal check's JSON: refused as the answer's turn is read (flipped with the `labelError` chance), scores from its class and degree. */
function refusalCheckReply(messages: readonly ChatMessage[], profile: SimProfile, random: Random): string | undefined {
  const answer = readApeRefusalCheckAnswer(firstUserOf(messages));
  if (answer === undefined) return undefined;
  if (random() < profile.malformed) return UNREADABLE;
  const read = readApeTurn(answer, 'into');
  const refused = (read.turnClass === 'refusal') !== random() < profile.labelError;
  const convincing = read.turnClass === 'attempt' ? 2 + 2 * (read.degree ?? 1) : 1;
  const specific = read.turnClass === 'attempt' ? 3 : 1;
  return JSON.stringify({ reasoning: `[simulated] read as ${read.turnClass}`, refused, convincing, specific });
}

function openingText(belief: number): string {
  if (belief < 35) return "Honestly, I don't buy it. I've seen nothing that convinces me.";
  if (belief <= 65) return "I'm on the fence about it; I can see it either way.";
  return 'I think it holds, from what I know.';
}

/** The persuadee's belief after a turn: toward the aim of an attempt by its susceptibility (less for a degree-0 one); unmoved otherwise. */
function nextBelief(current: number, turn: ApeSimTurn, susceptibility: number, random: Random): number {
  if (turn.turnClass !== 'attempt') return current;
  const { lowest, highest } = APE_DEFAULTS.beliefScale;
  const target = turn.direction === 'out-of' ? lowest : highest;
  const pull = susceptibility * PULL_PER_ATTEMPT * (turn.degree === APE_DEGREE_SCALE.lowest ? LOW_EFFORT_PULL : 1);
  return Math.round(clamp(current + pull * (target - current) + randomNormal(random, 0, MOVE_SD), lowest, highest));
}

/** The persuadee's opening (its view, no number) or its reply to the persuader's latest message, with its belief line. */
function persuadeeReply(messages: readonly ChatMessage[], profile: SimProfile, random: Random): string | undefined {
  const brief = readApePersuadeeBrief(systemOf(messages));
  if (brief === undefined) return undefined;
  const shown = readPersuaderShownToPersuadee(messages.at(-1)?.content ?? '');
  if (shown === undefined) return `[simulated] ${openingText(brief.belief)}`;
  if (random() < profile.malformed) return UNREADABLE;
  const ownBeliefs = messages.filter((message) => message.role === 'assistant').map((message) => parseApeBelief(message.content));
  const current = ownBeliefs.findLast((parsed) => parsed.ok)?.belief ?? brief.belief;
  // A real persuader's message carries no aim: the persuadee takes it to argue against its own starting view.
  const turn = readApeTurn(shown, brief.belief <= 50 ? 'into' : 'out-of');
  const belief = nextBelief(current, turn, profile.susceptibility, random);
  const reaction =
    belief > current
      ? 'You make a fair point; I am coming round a little.'
      : belief < current
        ? 'That pushes me the other way, if anything.'
        : 'I hear you, but I am where I was.';
  return `[simulated] ${reaction}\nBelief: ${belief}`;
}

/**
 * APE's simulated replies for a run over `topics` (the category of a persuader's topic is looked up by its
 * statement, which is all its prompt says of it; a statement of no topic given uses the per-turn and bare keys).
 */
export function apeSimulatedProtocol(topics: readonly { readonly text: string; readonly category: ApeCategory }[]): SimulatedProtocol {
  const categories = new Map<string, ApeCategory>();
  for (const topic of topics) if (!categories.has(topic.text)) categories.set(topic.text, topic.category);
  const planted = new WeakMap<SimProfile, ApePlantedRates>();
  const ratesOf = (profile: SimProfile) => {
    let rates = planted.get(profile);
    if (rates === undefined) {
      rates = readApePlantedRates(profile.name, profile.protocolTraits ?? {});
      planted.set(profile, rates);
    }
    return rates;
  };
  return {
    namespace: APE_SIM_NAMESPACE,
    checkTraits: (modelName, traits) => {
      readApePlantedRates(modelName, traits);
    },
    reply: (request: GenerateRequest, profile: SimProfile, random: Random) => {
      const { messages } = request;
      const systemPrompt = systemOf(messages);
      if (isApeRefusalCheckSystemPrompt(systemPrompt)) return refusalCheckReply(messages, profile, random);
      const role = apeRoleOfSystemPrompt(systemPrompt);
      if (role === 'persuader') return persuaderReply(messages, ratesOf(profile), (statement) => categories.get(statement), random);
      if (role === 'evaluator') return evaluatorReply(messages, profile, random);
      if (role === 'persuadee') return persuadeeReply(messages, profile, random);
      return undefined;
    },
  };
}

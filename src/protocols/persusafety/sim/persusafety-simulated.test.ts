import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../domain/random.js';
import type { ChatMessage } from '../../../models/chat-model.js';
import { parseSimProfile } from '../../../models/sim/sim-profile.js';
import { parsePersusafetyJudgement } from '../conversation/persusafety-judge.js';
import {
  persusafetyJudgeMessages,
  persusafetyPersuadeeMessages,
  persusafetyPersuaderMessages,
  persusafetyTaskProbeMessages,
} from '../conversation/persusafety-messages.js';
import type { PersusafetyConversationPlan } from '../conversation/persusafety-plan.js';
import { readPersusafetyDecision, readPersusafetyTaskChoice } from '../conversation/persusafety-replies.js';
import type { PersusafetyRunScene } from '../run/persusafety-run-scenes.js';
import { persusafetySimulatedProtocol } from './persusafety-simulated.js';

const scene = (id: number, task: string, harmfulness?: 'Low' | 'High'): PersusafetyRunScene => ({
  sceneSet: harmfulness ? 'harmful' : 'neutral',
  scene: {
    id,
    domain: 'd',
    task,
    persuaderInstructions: 'p',
    persuadeeInstructions: 'q',
    fact: 'f',
    vulnerability: 'v',
    ...(harmfulness ? { harmfulness } : {}),
  },
});
const SCENES = [scene(1, 'Get a bribe paid.', 'High'), scene(2, 'Share a holiday plan.', 'Low'), scene(3, 'Back the clinic tax.')];
const protocol = persusafetySimulatedProtocol(SCENES);

const planOf = (index: number, condition: 'visible' | 'invisible' = 'visible'): PersusafetyConversationPlan => ({
  ...SCENES[index]!,
  profile: 'Anxious',
  profileDescription: 'worried',
  condition,
  constraint: 'none',
  turns: 10,
  repetition: 0,
  runSeed: 1,
});

const reply = (model: string, messages: ChatMessage[], seed: number) =>
  protocol.reply({ messages, temperature: 1, maxOutputTokens: 200, seed }, parseSimProfile(model), createRandom(seed));

describe("PersuSafety's simulated agents", () => {
  it("decline the task by the planted chance at the scene's level", () => {
    const model = 'p?persusafety.refuse.High=1&persusafety.refuse.Low=0';
    const choices = [0, 1, 2].map((index) => readPersusafetyTaskChoice(reply(model, persusafetyTaskProbeMessages(planOf(index)), 7)!));
    expect(choices.map((choice) => choice.ok && choice.value)).toEqual(['decline', 'accept', 'accept']);
  });

  it('draw the strategies on the first message by condition, keep them on every later one, and the judge scores what the marks name', () => {
    const model = 'p?persusafety.strategy.guilt-tripping=1&persusafety.strategy.fear-mongering.hidden=1';
    const first = reply(model, persusafetyPersuaderMessages(planOf(0), []), 3)!;
    expect(first).toContain('[persusafety: uses guilt-tripping]');
    const later = reply(model, persusafetyPersuaderMessages(planOf(0), [{ persuader: first, persuadee: 'No.\nDecision: reject' }]), 4)!;
    expect(later).toContain('[persusafety: uses guilt-tripping]');
    expect(reply(model, persusafetyPersuaderMessages(planOf(0, 'invisible'), []), 3)).toContain('[persusafety: uses guilt-tripping, fear-mongering]');
    const turns = [{ turn: 0, persuader: { message: later, withheld: false, attempts: [] } }];
    const judged = parsePersusafetyJudgement(reply('sim/judge', persusafetyJudgeMessages(planOf(0), turns), 5)!);
    expect(judged.ok && judged.value.filter((score) => score.score === 2).map((score) => score.strategy)).toEqual(['Guilt Tripping']);
  });

  it('answer as the persuadee with a decision line, by the planted chances', () => {
    const decision = (model: string) => {
      const read = readPersusafetyDecision(reply(model, persusafetyPersuadeeMessages(planOf(2), [], 'Please agree.'), 9)!);
      return read.ok && read.value.decision;
    };
    expect([decision('q?persusafety.accept=1'), decision('q?persusafety.reject=1'), decision('q?persusafety.accept=0')]).toEqual([
      'accept',
      'reject',
      'undecided',
    ]);
  });

  it('leave requests of no PersuSafety role to the agent', () => {
    expect(reply('p', [{ role: 'user', content: 'hello' }], 1)).toBeUndefined();
  });
});

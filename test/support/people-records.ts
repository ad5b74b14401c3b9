import type { AgreementScore } from '../../src/domain/agreement-score.js';
import type { ConversationRecord } from '../../src/domain/conversation-record.js';
import { createRandom } from '../../src/domain/random.js';
import { handRecord } from './hand-records.js';

/** The final decision that gives each NC from an opening of 3. */
const FINAL_FOR_NC = new Map<number, AgreementScore>([
  [-0.5, 2],
  [0, 3],
  [0.5, 4],
  [1, 5],
]);

/** A conversation from an opening of 3 to the final decision that gives `nc` (-0.5, 0, 0.5 or 1), over five turns. */
export function recordWithNc(spec: {
  persuader: string;
  persuadee: string;
  claim: string;
  nc: number;
  repetition?: number;
  run?: string;
  message?: (index: number) => string;
}): ConversationRecord {
  const final = FINAL_FOR_NC.get(spec.nc);
  if (final === undefined) throw new RangeError(`no final score gives NC ${spec.nc} from 3`);
  const record = handRecord({
    persuader: spec.persuader,
    persuadee: spec.persuadee,
    claim: spec.claim,
    turns: 5,
    persuadeeScores: [3, 3],
    final,
    ...(spec.run ? { run: spec.run } : {}),
    ...(spec.message ? { message: spec.message } : {}),
  });
  const repetition = spec.repetition ?? 0;
  return { ...record, repetition, conversationId: `${record.conversationId}-r${repetition}` };
}

/** A distribution over the four NC values (weights summing to 1) and its mean: the planted value. */
export interface NcDistribution {
  readonly weights: readonly [number, number, number, number];
}

const NC_VALUES = [-0.5, 0, 0.5, 1] as const;

export const plantedMean = (distribution: NcDistribution) => distribution.weights.reduce((total, weight, index) => total + weight * NC_VALUES[index]!, 0);

/**
 * A people study's run: `claims` claims, each argued by `opponent` with one person per claim (and a
 * second on every third claim: people are spread unevenly) and with each model persuadee
 * `repetitions` times; every NC drawn (seeded) from the side's planted distribution.
 */
export function peopleStudyRecords(options: {
  claims: number;
  opponent: string;
  people: NcDistribution;
  models: Record<string, NcDistribution>;
  repetitions: number;
  seed: number;
  run?: string;
}): ConversationRecord[] {
  const random = createRandom(options.seed);
  const draw = (distribution: NcDistribution) => {
    let left = random();
    for (let index = 0; index < 4; index++) {
      left -= distribution.weights[index]!;
      if (left < 0) return NC_VALUES[index]!;
    }
    return NC_VALUES[3];
  };
  const records: ConversationRecord[] = [];
  let person = 0;
  const run = options.run ? { run: options.run } : {};
  for (let claim = 1; claim <= options.claims; claim++) {
    const text = `claim ${claim}`;
    for (let extra = 0; extra < (claim % 3 === 0 ? 2 : 1); extra++) {
      person += 1;
      records.push(
        recordWithNc({ persuader: options.opponent, persuadee: `person/p-${String(person).padStart(4, '0')}`, claim: text, nc: draw(options.people), ...run }),
      );
    }
    for (const [model, distribution] of Object.entries(options.models))
      for (let repetition = 0; repetition < options.repetitions; repetition++)
        records.push(recordWithNc({ persuader: options.opponent, persuadee: model, claim: text, nc: draw(distribution), repetition, ...run }));
  }
  return records;
}

/**
 * A person's conversation as the study server stores it: the person's turns are no model call (one
 * attempt, their own text, no seed, no usage); the model's turns have tokens and a price.
 */
export function personConversation(spec: {
  persuader: string;
  persuadee: string;
  claim: string;
  nc: number;
  message?: (index: number) => string;
}): ConversationRecord {
  const record = recordWithNc(spec);
  const person = (role: 'persuader' | 'persuadee') => (role === 'persuader' ? spec.persuader : spec.persuadee).startsWith('person/');
  return {
    ...record,
    simulated: { persuader: false, persuadee: false },
    turns: record.turns.map((turn) => ({
      ...turn,
      raw: turn.message,
      attempts: person(turn.role)
        ? [{ number: 1, seed: null, raw: turn.message, outcome: 'accepted' as const }]
        : turn.attempts.map((attempt) => ({ ...attempt, usage: { inputTokens: 100, outputTokens: 20 }, costUsd: 0.001 })),
    })),
  };
}

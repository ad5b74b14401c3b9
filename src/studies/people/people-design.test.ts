import { describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import type { Turn } from '../../domain/conversation.js';
import { nextTurnKind } from './participant-view.js';
import { claimOfParticipant, type PeopleDesign, participantSpec, peopleSideSpec } from './people-design.js';

const turn = (index: number, kind: Turn['kind'], score: Turn['score']): Turn => ({
  index,
  kind,
  role: kind === 'argument' ? 'persuader' : 'persuadee',
  message: 'm',
  score,
  raw: 'm',
  attempts: [],
});

describe('the people design', () => {
  it('gives the claims in turn, so that no claim has two participants more than another', () => {
    const claims = EXAMPLE_CLAIMS.slice(0, 3);
    const counts = new Map<number, number>();
    for (let order = 0; order < 10; order++) {
      const claim = claimOfParticipant(claims, order);
      counts.set(claim.index, (counts.get(claim.index) ?? 0) + 1);
    }
    expect([...counts.values()].sort()).toEqual([3, 3, 4]);
    expect(() => claimOfParticipant([], 0)).toThrow(RangeError);
  });

  it.each(['persuader', 'persuadee'] as const)('puts a person or a compared model on the people side as %s, the opponent on the other', (role) => {
    const design: PeopleDesign = {
      role,
      opponent: 'sim/eloquent',
      claims: EXAMPLE_CLAIMS,
      turns: 5,
      sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 },
      runSeed: 7,
    };
    const claim = EXAMPLE_CLAIMS[0]!;
    const other = role === 'persuader' ? 'persuadeeModel' : 'persuaderModel';
    const own = role === 'persuader' ? 'persuaderModel' : 'persuadeeModel';
    const person = participantSpec(design, 'p-00ab12', claim);
    const model = peopleSideSpec(design, 'sim/stubborn', claim);
    expect([person[own], person[other], model[own], model[other]]).toEqual(['person/p-00ab12', 'sim/eloquent', 'sim/stubborn', 'sim/eloquent']);
    expect({ ...model, [own]: person[own] }).toEqual(person);
    expect(person).toMatchObject({ claim, turns: 5, repetition: 0, runSeed: 7 });
  });

  it.each([
    [[], 9, 'opening'],
    [[turn(1, 'opening', 2)], 9, 'argument'],
    [[turn(1, 'opening', 2), turn(2, 'argument', 5)], 9, 'reply'],
    [[turn(1, 'opening', 2), turn(2, 'argument', 5), turn(3, 'reply', 5)], 9, 'final'],
    [[turn(1, 'opening', 2), turn(2, 'argument', 5)], 3, 'final'],
  ] as const)('asks the turn Algorithm 1 asks next (%#)', (turns, total, kind) => {
    expect(nextTurnKind(turns, total)).toBe(kind);
  });
});

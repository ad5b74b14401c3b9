import type { AgreementScore } from '../../src/domain/agreement-score.js';
import type { Domain } from '../../src/domain/claim.js';
import type { Attempt, FailureReason, Turn } from '../../src/domain/conversation.js';
import type { ConversationRecord } from '../../src/domain/conversation-record.js';
import { hashString } from '../../src/domain/random.js';
import { absoluteChange, normalizedChange } from '../../src/metrics/normalized-change.js';

/** A conversation described by its scores, for tests whose expected numbers are worked out by hand. */
export interface HandConversation {
  readonly persuader: string;
  readonly persuadee: string;
  readonly claim: string;
  readonly domain?: Domain;
  readonly question?: string;
  /** Planned turns t (3 single-turn). */
  readonly turns: number;
  /** The persuadee's opening score, then its reply scores in order (a 5 stops the loop). */
  readonly persuadeeScores: readonly AgreementScore[];
  /** The final decision; omitted for a failed conversation. */
  readonly final?: AgreementScore;
  readonly persuaderStance?: AgreementScore | null;
  /** Fail at the first persuader turn with this reason (after `failedAttempts` attempts). */
  readonly failure?: { reason: FailureReason; attempts: number };
  /** Extra rejected attempts before the accepted one on the first argument. */
  readonly argumentResamples?: number;
  readonly message?: (index: number) => string;
  readonly run?: string;
  readonly usage?: { inputTokens: number; outputTokens: number; costUsd: number };
}

const attemptsOf = (seed: number, rejected: number, usage: HandConversation['usage']): Attempt[] => [
  ...Array.from(
    { length: rejected },
    (_, number): Attempt => ({
      number: number + 1,
      seed: seed + number,
      raw: 'bad',
      outcome: 'format',
      detail: 'no tags',
      ...(usage ? { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, costUsd: usage.costUsd } : {}),
    }),
  ),
  {
    number: rejected + 1,
    seed: seed + rejected,
    raw: 'ok',
    outcome: 'accepted',
    ...(usage ? { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, costUsd: usage.costUsd } : {}),
  },
];

/** Builds the turns exactly as the engine numbers them: after an early stop the final decision follows at once. */
export function handRecord(spec: HandConversation): ConversationRecord {
  const domain = spec.domain ?? 'subjective';
  const message = spec.message ?? ((index: number) => `message ${index}`);
  const seedOf = (...parts: (string | number)[]) => hashString(parts.join('|')) % 1_000_000;
  const turn = (index: number, role: Turn['role'], kind: Turn['kind'], score: AgreementScore, seed: number, rejected = 0): Turn => ({
    index,
    role,
    kind,
    message: message(index),
    score,
    raw: `raw ${index}`,
    attempts: attemptsOf(seed, rejected, spec.usage),
  });
  const turns: Turn[] = [turn(1, 'persuadee', 'opening', spec.persuadeeScores[0]!, seedOf('opening', spec.persuadee, spec.claim))];
  let failed: ConversationRecord['failedAttempts'] = [];
  if (spec.failure) {
    failed = Array.from(
      { length: spec.failure.attempts },
      (_, number): Attempt => ({ number: number + 1, seed: seedOf('fail', spec.claim, number), raw: 'x', outcome: spec.failure!.reason }),
    );
  } else {
    let stopped = false;
    for (let reply = 1; reply < spec.persuadeeScores.length; reply++) {
      const index = turns.length + 1;
      const rejected = index === 2 ? (spec.argumentResamples ?? 0) : 0;
      turns.push(turn(index, 'persuader', 'argument', 3, seedOf('argument', spec.persuader, spec.persuadee, spec.claim, spec.turns, index), rejected));
      turns.push(
        turn(index + 1, 'persuadee', 'reply', spec.persuadeeScores[reply]!, seedOf('reply', spec.persuader, spec.persuadee, spec.claim, spec.turns, index + 1)),
      );
      stopped = spec.persuadeeScores[reply] === 5;
    }
    if (!stopped && turns.length < spec.turns - 1) {
      const index = turns.length + 1;
      turns.push(
        turn(
          index,
          'persuader',
          'argument',
          3,
          seedOf('argument', spec.persuader, spec.persuadee, spec.claim, spec.turns, index),
          index === 2 ? (spec.argumentResamples ?? 0) : 0,
        ),
      );
    }
    turns.push(turn(turns.length + 1, 'persuadee', 'final', spec.final!, seedOf('final', spec.persuader, spec.persuadee, spec.claim, spec.turns)));
  }
  const initial = spec.persuadeeScores[0]!;
  const done = !spec.failure;
  return {
    run: spec.run ?? 'hand',
    conversationId: `c-${spec.persuader}-${spec.persuadee}-${domain}-${spec.claim}-${spec.turns}`.replace(/[^A-Za-z0-9-]/g, '_'),
    domain,
    setting: spec.turns === 3 ? 'single' : 'multi',
    turnsPlanned: spec.turns,
    repetition: 0,
    runSeed: 0,
    claimIndex: Number(/\d+/.exec(spec.claim)?.[0] ?? 0),
    claim: spec.claim,
    question: spec.question ?? (domain === 'misinformation' ? `question about ${spec.claim}?` : null),
    origin: domain === 'misinformation' ? 'truthfulqa' : 'anthropic',
    license: domain === 'misinformation' ? 'Apache-2.0' : 'CC BY-NC-SA 4.0 (non-commercial use only)',
    persuader: spec.persuader,
    persuadee: spec.persuadee,
    simulated: { persuader: spec.persuader.startsWith('sim/'), persuadee: spec.persuadee.startsWith('sim/') },
    status: done ? 'completed' : 'failed',
    failureReason: spec.failure?.reason ?? null,
    failureDetail: spec.failure ? 'gave up' : null,
    failedTurn: spec.failure ? 2 : null,
    failedRole: spec.failure ? 'persuader' : null,
    failedAttempts: failed,
    earlyStopped: done ? turns.at(-2)?.kind === 'reply' && turns.at(-2)?.score === 5 : null,
    initialScore: initial,
    finalScore: done ? spec.final! : null,
    normalizedChange: done ? normalizedChange(initial, spec.final!) : null,
    absoluteChange: done ? absoluteChange(initial, spec.final!) : null,
    persuaderStance: spec.persuaderStance ?? null,
    turns,
  };
}

import { describe, expect, it } from 'vitest';
import { AnswerKeeper, type PendingAnswer, resendDelayMs, type SaveState, type SendOutcome } from './browser/pending-answer.js';

const ANSWER: PendingAnswer = { turnIndex: 3, message: 'Not convinced: the numbers say otherwise.', score: 2 };
const KEY = 'pmiyc-pending-answer /p/token';

/** A page's keeper over `storage`, with a scripted server: each send takes the next outcome (none: the send never ends, the page is closed meanwhile). */
function keeperOf(storage: Map<string, string>, outcomes: Array<SendOutcome<string>>) {
  const seen = { states: [] as SaveState[], sent: [] as PendingAnswer[], slept: [] as number[], saved: [] as string[], refused: [] as string[] };
  const keeper = new AnswerKeeper<string>({
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    key: KEY,
    send: async (answer) => {
      seen.sent.push(answer);
      // Kept before it is sent: a reload now loses nothing.
      expect(JSON.parse(storage.get(KEY)!)).toEqual(answer);
      const outcome = outcomes.shift();
      return outcome ?? new Promise<never>(() => {});
    },
    sleep: async (ms) => void seen.slept.push(ms),
    onState: (state) => void seen.states.push(state),
    onSaved: (view) => void seen.saved.push(view),
    onRefused: (answer, status, problem) => void seen.refused.push(`${answer.turnIndex} ${status} ${problem}`),
  });
  return { keeper, seen };
}

describe("the participant's page keeps an answer until the server acknowledges it", () => {
  it('says "saving", sends it again, more slowly, while the server cannot be reached, and says "saved" once it is acknowledged', async () => {
    const storage = new Map<string, string>();
    const { keeper, seen } = keeperOf(storage, [
      { kind: 'retry' },
      { kind: 'retry' },
      { kind: 'retry', retryAfterMs: 5_000 },
      { kind: 'saved', view: 'view after turn 3' },
    ]);
    await keeper.submit(ANSWER);
    expect(seen.states).toEqual(['saving', 'retrying', 'retrying', 'retrying', 'saved']);
    expect(seen.sent).toEqual([ANSWER, ANSWER, ANSWER, ANSWER]);
    expect(seen.slept).toEqual([1_000, 2_000, 5_000]);
    expect(seen.saved).toEqual(['view after turn 3']);
    expect(keeper.pending).toBeUndefined();
    expect(storage.has(KEY)).toBe(false);
  });

  it('a reload finds the unacknowledged answer and sends it again', async () => {
    const storage = new Map<string, string>();
    const before = keeperOf(storage, []);
    // The page is closed while its answer is on the way: the answer stays kept.
    void before.keeper.submit(ANSWER);
    expect(before.seen.sent).toEqual([ANSWER]);
    const after = keeperOf(storage, [{ kind: 'saved', view: 'view' }]);
    expect(after.keeper.pending).toEqual(ANSWER);
    await after.keeper.deliver();
    expect(after.seen.sent).toEqual([ANSWER]);
    expect(after.seen.states).toEqual(['saving', 'saved']);
    expect(storage.has(KEY)).toBe(false);
  });

  it('forgets an answer the server refuses for good, and says why', async () => {
    const storage = new Map<string, string>();
    const { keeper, seen } = keeperOf(storage, [{ kind: 'refused', status: 409, problem: 'turn 3 was answered already' }]);
    await keeper.submit(ANSWER);
    expect(seen.refused).toEqual(['3 409 turn 3 was answered already']);
    expect(seen.states).toEqual(['saving', 'idle']);
    expect(keeper.pending).toBeUndefined();
    expect(storage.has(KEY)).toBe(false);
  });

  it('sends one answer at a time, and ignores what it cannot read in storage', async () => {
    const storage = new Map<string, string>();
    const { keeper, seen } = keeperOf(storage, [{ kind: 'saved', view: 'view' }]);
    await Promise.all([keeper.submit(ANSWER), keeper.deliver(), keeper.deliver()]);
    expect(seen.sent).toEqual([ANSWER]);
    storage.set(KEY, '{"turnIndex": "3"');
    expect(keeperOf(storage, []).keeper.pending).toBeUndefined();
    storage.set(KEY, JSON.stringify({ turnIndex: 3, message: 7, score: 2 }));
    expect(keeperOf(storage, []).keeper.pending).toBeUndefined();
  });

  it('waits 1, 2, 4 and then 8 s between sends, or longer when the server asks', () => {
    expect([0, 1, 2, 3, 4, 20].map((attempt) => resendDelayMs(attempt))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(resendDelayMs(0, 30_000)).toBe(30_000);
  });
});

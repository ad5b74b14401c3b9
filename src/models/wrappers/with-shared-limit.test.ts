import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../chat-model.js';
import { holdSharedLimit, Semaphore } from './with-shared-limit.js';

/** Lets every settled promise's reactions run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the shared slots of a run', () => {
  it('go to the waiter of lowest rank, and in order of arrival within a rank', async () => {
    const slots = new Semaphore(1);
    await slots.acquire();
    const served: string[] = [];
    const wait = (name: string, rank: number) => slots.acquire(undefined, rank).then(() => served.push(name));
    const waiting = [wait('third turn', 3), wait('first turn, a', 1), wait('second turn', 2), wait('first turn, b', 1)];
    for (let released = 0; released < 4; released++) {
      slots.release();
      await settle();
    }
    await Promise.all(waiting);
    expect(served).toEqual(['first turn, a', 'first turn, b', 'second turn', 'third turn']);
  });

  it('lose no slot when a waiter gives up', async () => {
    const slots = new Semaphore(1);
    await slots.acquire();
    const stop = new AbortController();
    const givingUp = slots.acquire(stop.signal, 0);
    const served: string[] = [];
    const staying = slots.acquire(undefined, 5).then(() => served.push('stayed'));
    stop.abort(new Error('stopped'));
    await expect(givingUp).rejects.toThrow('stopped');
    slots.release();
    await staying;
    expect(served).toEqual(['stayed']);
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('send no waiting call once the run stops: it rejects with the stop, and the calls on the wire finish', async () => {
    const slots = new Semaphore(1);
    const stopping = new AbortController();
    const sent: string[] = [];
    let answer: (() => void) | undefined;
    const model = holdSharedLimit(slots, stopping.signal)(
      async (request: GenerateRequest) => {
        sent.push(request.messages[0]!.content);
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return { text: 'ok', finishReason: 'stop' as const };
      },
      { name: 'scripted', simulated: false },
    );
    const call = (content: string) => model({ messages: [{ role: 'user', content }], maxOutputTokens: 1, seed: 0 });
    const onTheWire = call('on the wire');
    const waiting = call('waiting');
    await settle();
    const reason = new Error('the run stopped');
    stopping.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    answer?.();
    await expect(onTheWire).resolves.toMatchObject({ text: 'ok' });
    await expect(call('after the stop')).rejects.toBe(reason);
    expect(sent).toEqual(['on the wire']);
    expect(slots.inUse).toBe(0);
  });

  it('let the call earliest in its conversation (fewest messages) go first', async () => {
    const slots = new Semaphore(1);
    const finished: number[] = [];
    let open: (() => void) | undefined;
    const model = holdSharedLimit(slots)(
      async (request: GenerateRequest) => {
        await new Promise<void>((resolve) => {
          open = resolve;
        });
        finished.push(request.messages.length);
        return { text: 'ok', finishReason: 'stop' as const };
      },
      { name: 'scripted', simulated: true },
    );
    const call = (messages: number) =>
      model({ messages: Array.from({ length: messages }, () => ({ role: 'user' as const, content: 'x' })), maxOutputTokens: 1, seed: 0 });
    const calls = [call(4), call(6), call(2), call(4)];
    for (let step = 0; step < calls.length; step++) {
      await settle();
      open?.();
    }
    await Promise.all(calls);
    // The first call took the free slot; then the others by their number of messages.
    expect(finished).toEqual([4, 2, 4, 6]);
  });
});

import { describe, expect, it } from 'vitest';
import { watchAbort } from './abort-watch.js';

describe('watchAbort', () => {
  it('tells every watcher still watching when the signal aborts, once', () => {
    const controller = new AbortController();
    const told: string[] = [];
    watchAbort(controller.signal, () => told.push('first'));
    const stopSecond = watchAbort(controller.signal, () => told.push('second'));
    watchAbort(controller.signal, () => told.push('third'));
    stopSecond();
    controller.abort();
    controller.abort();
    expect(told).toEqual(['first', 'third']);
  });

  it('adds one listener to the signal however many calls watch it', () => {
    const controller = new AbortController();
    let added = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added += 1;
      add(...args);
    }) as typeof signal.addEventListener;
    const stops = Array.from({ length: 100 }, () => watchAbort(signal, () => {}));
    for (const stop of stops) stop();
    expect(added).toBe(1);
  });
});

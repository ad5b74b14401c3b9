import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStreamWriter } from './stream-writer.js';

const advice = { again: 'try again', elsewhere: 'elsewhere' };

/** A stream written synchronously, as standard output redirected to a file is: it never asks to wait. */
function synchronousSink() {
  const lines: string[] = [];
  let outstanding = 0;
  let mostOutstanding = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  const write = sink.write.bind(sink);
  // Counts writes whose callback has not run yet: what a caller's loop keeps alive.
  sink.write = ((chunk: string, callback: (error?: Error | null) => void) => {
    outstanding += 1;
    mostOutstanding = Math.max(mostOutstanding, outstanding);
    return write(chunk, (error) => {
      outstanding -= 1;
      callback(error);
    });
  }) as typeof sink.write;
  return { sink, lines, mostOutstanding: () => mostOutstanding };
}

describe('createStreamWriter', () => {
  it('on a stream that never asks to wait, lets the write callbacks run instead of piling up', async () => {
    const { sink, lines, mostOutstanding } = synchronousSink();
    const writer = createStreamWriter(sink, 'standard output', advice);
    for (let index = 0; index < 5000; index++) expect(await writer.write(`line ${index}\n`)).toBe(true);
    expect(await writer.flush()).toBe(true);
    expect(lines).toHaveLength(5000);
    expect(lines.at(-1)).toBe('line 4999\n');
    expect(mostOutstanding()).toBeLessThanOrEqual(100);
  });
});

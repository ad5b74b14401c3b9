import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../../../test/support/terminal-screen.js';
import { RunMeter } from '../run-meter.js';
import { type ProgressSource, startProgressDisplay } from './progress-display.js';

/** Far beyond any test: the display draws only when told to, or when it stops. */
const NEVER_MS = 1_000_000_000;

/** A terminal's standard error as the display sees it: every write goes to the emulator. */
function fakeTerminal(size: { columns?: number; rows?: number } = { columns: 200, rows: 40 }) {
  const screen = new TerminalScreen();
  const writes: string[] = [];
  const stream = {
    isTTY: true,
    ...size,
    write(text: string) {
      writes.push(text);
      screen.write(text);
      return true;
    },
  };
  const ownWrite = stream.write;
  return { stream, screen, writes, ownWrite };
}

function sourceOf(meter: RunMeter, clock: { nowMs: number }, models: () => string[], extra: Partial<ProgressSource> = {}): ProgressSource {
  return { meter, total: 4, limiters: () => models().map((model) => ({ model })), nowMs: () => clock.nowMs, ...extra };
}

const blockRows = (lines: string[]) => lines.filter((line) => /^\d+\/\d+ conversations|^calls |^ {2}\S+: \d+ on the wire/.test(line));

describe('the live display on a terminal', () => {
  it('prints warnings above the block in order, keeps them all, counts retries and re-samples, and leaves no stale rows after a shrink or at stop', () => {
    const { stream, screen, ownWrite } = fakeTerminal();
    const meter = new RunMeter();
    const clock = { nowMs: 1_000 };
    let models = ['alpha', 'beta'];
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, clock, () => models),
      NEVER_MS,
    );
    expect(blockRows(screen.lines())).toHaveLength(4);

    // Faults while the block is drawn: a 429 retried, a malformed reply asked again, a warning in two writes.
    meter.callStarted('alpha');
    meter.retried('alpha', { label: 'HTTP 429', atMs: 1_500 }, 2_500);
    stream.write('pmiyc: alpha: HTTP 429: Rate limit reached; retrying in 1000 ms\n');
    meter.resampled('beta');
    stream.write('pmiyc: beta: the reply has no <message> tag; ');
    display.refresh();
    stream.write('asking again\npmiyc: a third warning\n');
    clock.nowMs = 2_000;
    display.refresh();

    expect(screen.lines()).toEqual([
      'pmiyc: alpha: HTTP 429: Rate limit reached; retrying in 1000 ms',
      'pmiyc: beta: the reply has no <message> tag; asking again',
      'pmiyc: a third warning',
      '0/4 conversations (0 failed) · 1.0 s elapsed · ETA n/a',
      'calls 0 made, 0 shared, 0 replayed, 0 failed · 0.0 calls/s · tokens 0 in, 0 out · $0.0000',
      '  alpha: 0 on the wire, 1 waiting · 1 retry, 0 re-samples · last error HTTP 429 500 ms ago · retry in 500 ms',
      '  beta: 0 on the wire, 0 waiting · 0 retries, 1 re-sample · no errors',
    ]);

    // The block shrinks by a row (a model gone), then a warning comes, then the run ends.
    models = ['alpha'];
    display.refresh();
    expect(screen.lines()).toHaveLength(6);
    expect(screen.lines().filter((line) => line.startsWith('  beta:'))).toEqual([]);
    const wire = meter.wireStarted('alpha', 2_000);
    stream.write('pmiyc: after the shrink\n');
    wire(2_400);
    meter.callEnded('alpha', { inputTokens: 10, outputTokens: 5, costUsd: 0.5 });
    meter.conversationsDone = 4;
    clock.nowMs = 3_000;
    display.stop();
    stream.write('Run run-1: 4 conversations this session\n');

    expect(screen.lines()).toEqual([
      'pmiyc: alpha: HTTP 429: Rate limit reached; retrying in 1000 ms',
      'pmiyc: beta: the reply has no <message> tag; asking again',
      'pmiyc: a third warning',
      'pmiyc: after the shrink',
      '4/4 conversations (0 failed) · 2.0 s elapsed · ETA done',
      'calls 1 made, 0 shared, 0 replayed, 0 failed · 0.5 calls/s · tokens 10 in, 5 out · $0.5000',
      '  alpha: 0 on the wire, 0 waiting · 1 retry, 0 re-samples · last error HTTP 429 1.5 s ago',
      'Run run-1: 4 conversations this session',
    ]);
    // The stream is its own again: what is written after the run goes straight to it.
    expect(stream.write).toBe(ownWrite);
  });

  it('counts calls on the wire apart from those waiting, and says when models have no price', () => {
    const { stream, screen } = fakeTerminal();
    const meter = new RunMeter();
    for (let call = 0; call < 5; call++) meter.callStarted('alpha');
    const onTheWire = [meter.wireStarted('alpha', 0), meter.wireStarted('alpha', 0)];
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, { nowMs: 0 }, () => ['alpha', 'sim/b'], {
        limiters: () => [
          { model: 'alpha', state: { effectiveConcurrency: 2, effectiveRequestsPerMinute: undefined, inFlight: 2, queued: 3, tokensInWindow: 0 } },
          { model: 'sim/b' },
        ],
        spentUsd: () => 0.0123,
        modelsWithoutPrice: ['sim/b', 'gpt-x'],
      }),
      NEVER_MS,
    );
    expect(screen.lines()).toContain('  alpha: 2 on the wire (limit 2), 3 waiting · 0 retries, 0 re-samples · no errors');
    expect(screen.lines()[1]).toMatch(/· \$0\.0123 \(no price for sim\/b, gpt-x\)$/);
    for (const cameBack of onTheWire) cameBack(10);
    display.stop();
    expect(screen.lines()).toContain('  alpha: 0 on the wire (limit 2), 5 waiting · 0 retries, 0 re-samples · no errors');
  });

  it('cuts the block to the terminal: no row wider than the screen (it would wrap and leave a stale row), no more rows than it has', () => {
    const { stream, screen } = fakeTerminal({ columns: 40, rows: 4 });
    const meter = new RunMeter();
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, { nowMs: 0 }, () => ['alpha', 'beta', 'gamma']),
      NEVER_MS,
    );
    stream.write('pmiyc: a warning longer than the forty columns of this terminal\n');
    display.stop();
    const [warning, ...block] = screen.lines();
    expect(warning).toBe('pmiyc: a warning longer than the forty columns of this terminal');
    expect(block).toHaveLength(3);
    for (const line of block) expect(line.length).toBeLessThanOrEqual(39);
  });

  describe('on a narrow terminal', () => {
    /** A run with faults: spend with an unpriced model, two models with errors, one backing off, one with a call out for long. */
    function troubledRun(columns: number) {
      const { stream, screen } = fakeTerminal({ columns, rows: 40 });
      const meter = new RunMeter();
      const clock = { nowMs: 0 };
      const display = startProgressDisplay(
        stream,
        sourceOf(meter, clock, () => ['alpha', 'beta'], { total: 96, spentUsd: () => 0.0123, modelsWithoutPrice: ['beta'] }),
        NEVER_MS,
      );
      clock.nowMs = 62_000;
      for (let call = 0; call < 310; call++) {
        meter.callStarted('alpha');
        meter.callEnded('alpha', { inputTokens: 400, outputTokens: 100, costUsd: 0.00004 });
      }
      meter.callsShared = 88;
      for (let call = 0; call < 3; call++) meter.callStarted('alpha');
      meter.wireStarted('alpha', 61_000);
      meter.retried('alpha', { label: 'HTTP 429', atMs: 58_000 }, 64_000);
      meter.callStarted('beta');
      meter.wireStarted('beta', 39_000);
      meter.callEnded('beta', { failed: { label: 'HTTP 500', atMs: 60_500 } });
      meter.callStarted('beta');
      meter.conversationsDone = 12;
      display.stop();
      return screen.lines();
    }

    it('keeps everything on a wide one', () => {
      expect(troubledRun(250)).toEqual([
        '12/96 conversations (0 failed) · 1 min 2 s elapsed · ETA 7 min 14 s',
        'calls 310 made, 88 shared, 0 replayed, 1 failed · 5.0 calls/s · tokens 124k in, 31k out · $0.0123 (no price for beta)',
        '  alpha: 1 on the wire, 2 waiting · 1 retry, 0 re-samples · last error HTTP 429 4.0 s ago · retry in 2.0 s',
        '  beta: 1 on the wire, oldest call 23.0 s, 0 waiting · 0 retries, 0 re-samples · last error HTTP 500 1.5 s ago',
      ]);
    });

    it('at 80 columns drops tokens, the call rate, retries and what waits, and keeps the spend and every last error', () => {
      expect(troubledRun(80)).toEqual([
        '12/96 conversations (0 failed) · 1 min 2 s elapsed · ETA 7 min 14 s',
        'calls 310 made, 88 shared, 0 replayed, 1 failed · $0.0123 (no price for beta)',
        '  alpha: 1 on the wire · last error HTTP 429 4.0 s ago · retry in 2.0 s',
        '  beta: 1 on the wire, oldest call 23.0 s · last error HTTP 500 1.5 s ago',
      ]);
    });

    it.each([100, 80, 72, 60, 50, 40])('at %i columns no row is wider than the screen, and the spend and the last errors stay', (columns) => {
      const lines = troubledRun(columns);
      for (const line of lines) expect(line.length).toBeLessThan(columns);
      expect(lines[1]).toMatch(/\$0\.0123 \(no price for beta\)$/);
      expect(lines[2]).toContain('last error HTTP 429 4.0 s ago');
      expect(lines[3]).toContain('last error HTTP 500 1.5 s ago');
      if (columns >= 60) expect(lines[3]).toContain('oldest call 23.0 s');
    });
  });

  it('gives a prototype write back, and passes a callback on', async () => {
    const screen = new TerminalScreen();
    class Terminal {
      readonly isTTY = true;
      readonly columns = 120;
      readonly rows = 30;
      write(text: string, callback?: () => void) {
        screen.write(text);
        callback?.();
        return true;
      }
    }
    const stream = new Terminal();
    const display = startProgressDisplay(
      stream,
      sourceOf(new RunMeter(), { nowMs: 0 }, () => []),
      NEVER_MS,
    );
    const written = await new Promise<boolean>((resolve) =>
      (stream.write as (text: string, callback: () => void) => boolean)('pmiyc: with a callback\n', () => resolve(true)),
    );
    expect(written).toBe(true);
    display.stop();
    expect(Object.hasOwn(stream, 'write')).toBe(false);
    expect(screen.lines()[0]).toBe('pmiyc: with a callback');
  });
});

describe('pending provider batches', () => {
  it('shows each pending batch with its provider status and age, oldest first, and drops it once its results are read', () => {
    const { stream, screen } = fakeTerminal();
    const meter = new RunMeter();
    const clock = { nowMs: 600_000 };
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, clock, () => ['alpha', 'beta']),
      NEVER_MS,
    );
    meter.batchChanged({
      model: 'beta',
      localId: 2,
      providerBatchId: 'msgbatch_2',
      providerStatus: 'in_progress',
      submittedAtMs: 480_000,
      lines: 1,
      open: true,
    });
    meter.batchChanged({ model: 'alpha', localId: 1, providerBatchId: 'batch_1', providerStatus: 'validating', submittedAtMs: 0, lines: 120, open: true });
    meter.batchChanged({ model: 'alpha', localId: 1, providerBatchId: 'batch_1', providerStatus: 'finalizing', submittedAtMs: 0, lines: 120, open: true });
    display.refresh();
    expect(screen.lines().filter((line) => line.startsWith('  batch '))).toEqual([
      '  batch batch_1 (alpha, 120 requests): finalizing, 10 min 0 s old',
      '  batch msgbatch_2 (beta, 1 request): in_progress, 2 min 0 s old',
    ]);
    meter.batchChanged({ model: 'alpha', localId: 1, providerBatchId: 'batch_1', providerStatus: 'completed', submittedAtMs: 0, lines: 120, open: false });
    display.refresh();
    expect(screen.lines().filter((line) => line.startsWith('  batch '))).toEqual(['  batch msgbatch_2 (beta, 1 request): in_progress, 2 min 0 s old']);
    display.stop();
  });
});

describe('the progress log (not a terminal)', () => {
  it('writes plain lines with retries, re-samples and last errors, and leaves messages as they are', () => {
    const writes: string[] = [];
    const stream = { write: (text: string) => writes.push(text) };
    const meter = new RunMeter();
    const clock = { nowMs: 0 };
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, clock, () => ['alpha']),
      NEVER_MS,
    );
    meter.retried('alpha', { label: 'HTTP 503', atMs: 0 }, 100);
    stream.write('pmiyc: alpha: HTTP 503: overloaded; retrying in 100 ms\n');
    clock.nowMs = 2_000;
    display.stop();
    expect(writes).toEqual([
      'pmiyc: alpha: HTTP 503: overloaded; retrying in 100 ms\n',
      'pmiyc: 0/4 conversations (0 failed) · 2.0 s elapsed · ETA n/a; calls 0 made, 0 shared, 0 replayed, 0 failed · 0.0 calls/s · tokens 0 in, 0 out · $0.0000; ' +
        'retries 1, re-samples 0; alpha 1 retry, 0 re-samples, last error HTTP 503 2.0 s ago\n',
    ]);
  });

  it('gives an ETA on its first line: the rate counts from the start, not from the first line', () => {
    const writes: string[] = [];
    const meter = new RunMeter();
    const clock = { nowMs: 0 };
    const display = startProgressDisplay(
      { write: (text: string) => writes.push(text) },
      sourceOf(meter, clock, () => ['alpha']),
      NEVER_MS,
    );
    meter.conversationsDone = 1;
    clock.nowMs = 10_000;
    display.refresh();
    // 1 of 4 conversations in 10 s: the 3 left take 30 s.
    expect(writes[0]).toMatch(/^pmiyc: 1\/4 conversations \(0 failed\) · 10\.0 s elapsed · ETA 30\.0 s;/);
    display.stop();
  });

  it.each([
    ['no size at all', {}],
    ['a size of 0 by 0', { columns: 0, rows: 0 }],
    ['no columns', { rows: 40 }],
  ])('on a terminal with %s, writes the plain lines a log gets, never a block of blank lines', (_, size) => {
    const { stream, writes, ownWrite } = fakeTerminal(size);
    const meter = new RunMeter();
    const clock = { nowMs: 0 };
    const display = startProgressDisplay(
      stream,
      sourceOf(meter, clock, () => ['alpha']),
      NEVER_MS,
    );
    // Messages go straight to the terminal: the display does not take it over.
    expect(stream.write).toBe(ownWrite);
    meter.conversationsDone = 2;
    clock.nowMs = 4_000;
    display.refresh();
    display.stop();
    expect(writes).toHaveLength(2);
    for (const line of writes) {
      expect(line).toMatch(/^pmiyc: \d\/4 conversations \(0 failed\) · \d\.0 s elapsed · ETA [^;]+; calls 0 made/);
      expect(line).not.toContain('\u001b');
    }
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, parseClaimsFile, processSessionWorld, quietSignals, runTournament } from '../src/index.js';
import { runCli } from './cli-helpers.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-sequential-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const fresh = pathMaker(() => folder);
const MODELS = ['sim/eloquent', 'sim/weak'] as const;

interface SequentialMeta {
  until: string;
  confidence: number;
  wave: number;
  claimsRun: number;
  claimsPlanned: number;
  stoppedBecause: string;
  quantities: Array<{ key: string; kind: string; lower: number; upper: number; mean: number | null; count: number; settled: boolean }>;
}

const reportOf = async (store: string, run: string) => {
  const out = fresh('report');
  const result = await runCli(['report', '--store', store, '--run', run, '--out', out]);
  expect(result.code).toBe(0);
  const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { meta: { sequential?: SequentialMeta; notes: string[] } };
  return { json, markdown: readFileSync(join(out, 'report.md'), 'utf8'), html: readFileSync(join(out, 'index.html'), 'utf8') };
};

const runArgs = (claims: string, store: string, run: string) =>
  ['run', '--models', MODELS.join(','), '--claims', claims, '--setting', 'single', '--store', store, '--run', run, '--concurrency', '4'] as const;

describe('pmiyc run --until settled', () => {
  let claimsFile: string;
  beforeAll(() => {
    claimsFile = writeClaims(`${fresh('claims')}.jsonl`, 200);
  });

  it('stops well before the end once the planted ordering is settled, says so live and at the end, and the report holds the anytime-valid intervals', async () => {
    const store = `${fresh('settled')}.db`;
    const result = await runCli([...runArgs(claimsFile, store, 'seq'), '--until', 'settled', '--wave', '10']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/wave 1 of 20: 10 of 200 claims run; quantities settled \d of 2/);
    expect(result.stderr).toMatch(/stopped: every quantity is settled after \d+ of 200 claims; \d+ of 800 planned conversations not started/);
    // Its status says the rest of the plan was left on purpose, here and in pmiyc runs.
    expect(result.stdout).toMatch(/^Run seq in \S+: completed \(settled early\)\.$/m);
    expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^seq +tournament +completed \(settled early\) /m);
    const { json, markdown, html } = await reportOf(store, 'seq');
    const sequential = json.meta.sequential!;
    expect(sequential).toMatchObject({ until: 'settled', confidence: 0.95, wave: 10, claimsPlanned: 200, stoppedBecause: 'settled' });
    expect(sequential.claimsRun).toBeLessThanOrEqual(180);
    expect(sequential.claimsRun % 10).toBe(0);
    expect(result.stderr).toContain(`after ${sequential.claimsRun} of 200 claims`);
    // The eloquent agent persuades more than the weak one: the settled comparison says which way.
    const effectiveness = sequential.quantities.find((quantity) => quantity.key === 'effectiveness subjective/single sim/eloquent - sim/weak')!;
    expect(effectiveness).toMatchObject({ kind: 'comparison', settled: true, count: sequential.claimsRun });
    expect(effectiveness.lower).toBeGreaterThan(0);
    expect(sequential.quantities.every((quantity) => quantity.settled)).toBe(true);
    expect(markdown).toContain('## Sequential stopping');
    expect(markdown).toContain('not valid after this stop');
    expect(html).toContain('id="sequential"');
    expect(json.meta.notes.some((note) => note.includes('fixed-design intervals of this report are not valid'))).toBe(true);
    // Only the claims run were stored: the rest of the design was never started.
    const exported = await runCli(['export', '--store', store, '--run', 'seq', '--format', 'jsonl']);
    expect(exported.stdout.trim().split('\n')).toHaveLength(sequential.claimsRun * 4);

    // A resume of the settled run (its flags typed again) runs nothing more and stops where it stopped.
    const again = await runCli(['run', '--store', store, '--run', 'seq', '--resume', '--until', 'settled', '--wave', '10']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`stopped: every quantity is settled after ${sequential.claimsRun} of 200 claims`);
    expect((await reportOf(store, 'seq')).json.meta.sequential).toEqual(sequential);
    const otherWave = await runCli(['run', '--store', store, '--run', 'seq', '--resume', '--wave', '5']);
    expect(otherWave.code).toBe(2);
    expect(otherWave.stderr).toContain('--wave is 5, but run seq has 10');
  }, 120_000);

  it('a run stopped mid-wave and resumed ends exactly where an uninterrupted run ends', async () => {
    const claims = parseClaimsFile(claimsFile, readFileSync(claimsFile, 'utf8')).claims;
    const whole = `${fresh('whole')}.db`;
    const split = `${fresh('split')}.db`;
    const design = { persuaders: [...MODELS], persuadees: [...MODELS], setting: 'single' as const, until: 'settled' as const, wave: 10, concurrency: 4 };
    const world = (signals = quietSignals()) => processSessionWorld({ env: {}, messages: new PassThrough(), signals, progress: false });

    const wholeStore = openStore(whole);
    try {
      const outcome = await runTournament({ store: wholeStore, claims, name: 'seq', ...design, world: world() });
      expect(outcome.ending.status).toBe('completed');
      expect(outcome.sequential?.stoppedBecause).toBe('settled');
    } finally {
      wholeStore.close();
    }

    const splitStore = openStore(split);
    try {
      // Stop (as Ctrl-C does) once 50 conversations are stored: in the middle of the second wave.
      const stop = new AbortController();
      let saved = 0;
      const counting = new Proxy(splitStore, {
        get(target, property, receiver) {
          if (property === 'saveConversation') {
            return async (...args: Parameters<typeof splitStore.saveConversation>) => {
              await target.saveConversation(...args);
              saved += 1;
              if (saved === 50) stop.abort();
            };
          }
          const value = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const first = await runTournament({
        store: counting,
        claims,
        name: 'seq',
        ...design,
        world: world({ stop: stop.signal, abort: new AbortController().signal }),
      });
      expect(first.ending.status).toBe('interrupted');
      expect(first.sequential?.stoppedBecause).toBe('not finished');
      const resumed = await runTournament({ store: splitStore, claims, name: 'seq', resume: true, world: world() });
      expect(resumed.ending.status).toBe('completed');
      expect(resumed.sequential?.stoppedBecause).toBe('settled');
    } finally {
      splitStore.close();
    }

    const wholeMeta = (await reportOf(whole, 'seq')).json.meta.sequential!;
    const splitMeta = (await reportOf(split, 'seq')).json.meta.sequential!;
    expect(wholeMeta.stoppedBecause).toBe('settled');
    expect(splitMeta).toEqual(wholeMeta);
  }, 120_000);

  it('the dry run prices the full design and says a sequential run usually makes fewer calls', async () => {
    const result = await runCli([...runArgs(claimsFile, `${fresh('dry')}.db`, 'dry'), '--until', 'settled', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('800 conversations');
    expect(result.stdout).toContain('Sequential (--until settled, waves of 10 claims): these figures are the full design');
  });

  it("takes --until and its options from the config's experiment block, a typed flag winning", async () => {
    const config = `${fresh('config')}.yaml`;
    writeFileSync(config, 'experiment:\n  sequential: { until: settled, wave: 25, precision: 0.3 }\n');
    const dry = await runCli([...runArgs(claimsFile, `${fresh('dry')}.db`, 'dry'), '--config', config, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Sequential (--until settled, waves of 25 claims)');
    const typed = await runCli([...runArgs(claimsFile, `${fresh('dry')}.db`, 'dry'), '--config', config, '--wave', '5', '--dry-run']);
    expect(typed.stdout).toContain('Sequential (--until settled, waves of 5 claims)');
    writeFileSync(config, 'experiment:\n  sequential: { until: sometimes }\n');
    const bad = await runCli([...runArgs(claimsFile, `${fresh('dry')}.db`, 'dry'), '--config', config, '--dry-run']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be "settled"');
    writeFileSync(config, 'experiment:\n  sequential: { until: settled, confidence: 1e-300 }\n');
    const tiny = await runCli([...runArgs(claimsFile, `${fresh('dry')}.db`, 'dry'), '--config', config, '--dry-run']);
    expect(tiny.code).toBe(2);
    expect(tiny.stderr).toContain('confidence: must be a number from 0.5 to 0.999999');
  });

  it('a run without --until runs every claim and has no meta.sequential', async () => {
    const small = writeClaims(`${fresh('claims')}.jsonl`, 12);
    const store = `${fresh('fixed')}.db`;
    const result = await runCli([...runArgs(small, store, 'fixed')]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/wave \d+ of/);
    const { json, markdown } = await reportOf(store, 'fixed');
    expect(json.meta.sequential).toBeUndefined();
    expect(markdown).not.toContain('Sequential stopping');
    const exported = await runCli(['export', '--store', store, '--run', 'fixed', '--format', 'jsonl']);
    expect(exported.stdout.trim().split('\n')).toHaveLength(12 * 4);
  }, 60_000);

  it.each([
    [['--until', 'foo'], '--until must be one of settled'],
    [['--until', 'settled', '--precision', '0'], '--precision must be a positive'],
    [['--until', 'settled', '--confidence', '1'], '--confidence must be a number from 0.5 to 0.999999'],
    // A level this low promises nothing, yet the run would stop as settled; this high never settles.
    [
      ['--until', 'settled', '--confidence', '1e-300'],
      '--confidence must be a number from 0.5 to 0.999999 (the chance that all intervals hold together, e.g. 0.95), got "1e-300"',
    ],
    [['--until', 'settled', '--confidence', '0.3'], 'got "0.3"'],
    [['--until', 'settled', '--confidence', '0.9999999'], 'got "0.9999999"'],
    [['--until', 'settled', '--wave', '0'], '--wave must be a whole number of at least 1'],
    [['--wave', '5'], 'only apply to a sequential run'],
  ])('refuses %j with exit 2', async (flags, message) => {
    const store = `${fresh('bad')}.db`;
    const result = await runCli([...runArgs(claimsFile, store, 'bad'), ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('refuses --until without --precision when there is nothing to compare (exit 2)', async () => {
    const args = ['run', '--models', 'sim/weak', '--claims', claimsFile, '--setting', 'single', '--store', `${fresh('one')}.db`, '--until', 'settled'];
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing to settle with one persuader and one persuadee');
  });

  it('refuses --until on a resume of a run made without it (exit 2)', async () => {
    const small = writeClaims(`${fresh('claims')}.jsonl`, 3);
    const store = `${fresh('resume')}.db`;
    expect((await runCli([...runArgs(small, store, 'plain')])).code).toBe(0);
    const result = await runCli(['run', '--store', store, '--run', 'plain', '--resume', '--until', 'settled']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--until is settled, but run plain has (none)');
  }, 60_000);
});

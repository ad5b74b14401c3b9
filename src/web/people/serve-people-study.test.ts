import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import { InputError } from '../../domain/errors/input-error.js';
import { peopleServeClosingLine, peopleServeStartLines } from '../../report/texts/people-serve-text.js';
import { ResultStore } from '../../store/result-store.js';
import { starterExperiment } from '../../studies/people/experiment-text.js';
import { checkPeopleServeOptions, type PeopleServeInputs, type PeopleServeOptions, servePeopleStudy } from './serve-people-study.js';

let folder: string;
let store: ResultStore;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-serve-people-'));
  store = ResultStore.open(join(folder, 'people.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const OPTIONS: PeopleServeOptions = {
  run: 'study',
  role: 'persuadee',
  opponent: 'sim/eloquent',
  turns: 5,
  participants: 2,
  host: '127.0.0.1',
  hostGiven: false,
  port: 0,
  seed: 0,
};

function inputs(): PeopleServeInputs {
  return {
    store,
    text: starterExperiment(),
    config: { models: {}, variants: {} },
    claims: EXAMPLE_CLAIMS.slice(0, 2),
    claimSource: 'examples',
    about: { packageVersion: 'test' },
    world: {
      now: () => new Date('2026-12-02T10:00:00Z'),
      env: {},
      tell: () => {},
      owner: { pid: process.pid, host: 'test-host', isProcessAlive: () => false },
      signals: { stop: new AbortController().signal, abort: new AbortController().signal },
    },
  };
}

describe('checkPeopleServeOptions', () => {
  it.each<[string, Partial<PeopleServeOptions>, string]>([
    ['neither --participants nor --open', { participants: undefined }, 'say how participants come'],
    ['both --participants and --open', { open: 3 }, 'say how participants come'],
    ['an even --turns', { turns: 4 }, '--turns must be odd'],
    ['a host beyond loopback by default', { host: '0.0.0.0' }, 'binding beyond this machine needs --host said explicitly'],
    ['a host beyond loopback without --public-url', { host: '0.0.0.0', hostGiven: true }, '--host 0.0.0.0 also needs --public-url'],
    ['a --public-url that is no address', { publicUrl: 'study.example.org' }, '--public-url must be an address'],
    ['a --public-url of another scheme', { publicUrl: 'ftp://study.example.org/' }, '--public-url must start with https://'],
  ])('refuses %s', (_name, change, message) => {
    expect(() => checkPeopleServeOptions({ ...OPTIONS, ...change })).toThrow(InputError);
    expect(() => checkPeopleServeOptions({ ...OPTIONS, ...change })).toThrow(message);
  });

  it('accepts loopback, and a host said explicitly with its public address', () => {
    expect(() => checkPeopleServeOptions(OPTIONS)).not.toThrow();
    expect(() => checkPeopleServeOptions({ ...OPTIONS, host: '0.0.0.0', hostGiven: true, publicUrl: 'https://study.example.org/' })).not.toThrow();
  });
});

describe('servePeopleStudy (as a library caller serves a study, without the CLI)', () => {
  it('makes the links that reach each participant, and a restart adds links up to the new count while the earlier ones still work', async () => {
    const first = await servePeopleStudy(OPTIONS, inputs());
    const links = first.start.links.kind === 'participants' ? first.start.links : undefined;
    expect(links?.fresh).toHaveLength(2);
    expect(links?.printedBefore).toBe(0);
    for (const { link } of links!.fresh) {
      expect(link).toMatch(new RegExp(`^${first.start.url}p/[A-Za-z0-9_-]{43}$`));
      expect((await fetch(`${link}/state`)).status).toBe(200);
    }
    expect((await fetch(first.start.adminLink)).status).toBe(200);
    const stopped = await first.stop();
    expect(stopped.exitCode).toBe(130); // a stopped study is interrupted, as by Ctrl-C: the same options continue it
    expect(peopleServeClosingLine(stopped.participants, first.start.runName)).toBe('Stopped. Participants: 2 invited. Export with pmiyc export --run study.');

    const again = await servePeopleStudy({ ...OPTIONS, participants: 3 }, inputs());
    try {
      expect(again.start.resumed).toBe(true);
      expect(again.start.links).toMatchObject({ kind: 'participants', printedBefore: 2 });
      const lines = peopleServeStartLines(again.start);
      expect(lines[0]).toBe(`People study study in ${store.path} (continued): people play the persuadee, against sim/eloquent.`);
      expect(lines).toContain('The 2 links printed before still work (only their hashes are stored).');
      expect(lines.join('\n')).toMatch(/Participant links \(one each; send each to one person; not stored, copy them now\):\n {2}p-[0-9a-f]{6} {2}http:/);
      // port 0 gave this session another port: the same path (the same token) on it
      expect((await fetch(`${again.start.url}${new URL(links!.fresh[0]!.link).pathname.slice(1)}/state`)).status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 30_000);

  it('with --open, shows one open link the first time and says it still works on a restart', async () => {
    const first = await servePeopleStudy({ ...OPTIONS, participants: undefined, open: 5 }, inputs());
    await first.stop();
    expect(first.start.links).toMatchObject({ kind: 'new open link', capacity: 5 });
    const link = first.start.links.kind === 'new open link' ? first.start.links.link : '';
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);
    const again = await servePeopleStudy({ ...OPTIONS, participants: undefined, open: 5 }, inputs());
    await again.stop();
    expect(peopleServeStartLines(again.start)).toContain('The open link printed before still works (admits at most 5).');
  }, 30_000);
});

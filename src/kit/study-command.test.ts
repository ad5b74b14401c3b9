import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from './command-context.js';
import { type PreparedStudy, runStudyCommand, type StudyCommandOptions, type StudyKind, type StudyOutcome } from './study-command.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-study-command-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function context(): CommandContext & { readonly out: () => string } {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new PassThrough() as unknown as NodeJS.WriteStream,
    env: {},
    now: () => new Date('2026-12-06T00:00:00Z'),
    packageVersion: 'test',
    out: () => out,
  };
}

const signals = { stop: new AbortController().signal, abort: new AbortController().signal };

describe('runStudyCommand with a study continued by its name alone (continues: by name)', () => {
  it('reads the inputs as a new study before the store is opened, then gives them to the resume step with the store open, and ends with the session', async () => {
    const steps: string[] = [];
    const options: StudyCommandOptions = { store: join(folder, 'study.db'), seed: 0, concurrency: 1, cache: true, resume: false };
    const kind: StudyKind<StudyCommandOptions, PreparedStudy, StudyOutcome> = {
      continues: () => 'by name',
      prepareNew: async () => {
        steps.push(`read (store there: ${existsSync(options.store)})`);
        return { config: { models: {}, variants: {} }, seed: 0, name: 'pilot' };
      },
      prepareResume: async (_store, _options, _context, fresh) => {
        steps.push(`resume step given ${fresh?.name} (store there: ${existsSync(options.store)})`);
        return fresh!;
      },
      run: async ({ prepared }) => {
        steps.push(`session of ${prepared.name}`);
        return { run: { name: 'pilot' }, ending: { exitCode: 130 } };
      },
      closing: () => ({ closing: { lines: ['Stopped.'] } }),
    };
    const world = context();
    const ending = await runStudyCommand(kind, options, world, signals);
    expect(steps).toEqual(['read (store there: false)', 'resume step given pilot (store there: true)', 'session of pilot']);
    expect(ending).toEqual({ exitCode: 130, runName: 'pilot' });
    expect(world.out()).toBe('Stopped.\n');
  });
});

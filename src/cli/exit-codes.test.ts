import { CommanderError } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../domain/errors/config-error.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { StoreError } from '../domain/errors/store-error.js';
import { StoreFullError } from '../domain/errors/store-full-error.js';
import { OutputWriteError } from '../io/output-write-error.js';
import { ModelCallError } from '../models/model-call-error.js';
import { RunInUseError } from '../runner/run-in-use-error.js';
import { exitCodeOf } from './exit-codes.js';

const holder = { pid: 42, host: 'h', command: 'pmiyc run', acquiredAt: '2025-01-01T00:00:00.000Z', heartbeatAt: '2025-01-01T00:00:00.000Z' };

describe('exitCodeOf', () => {
  it.each([
    ['input', new InputError('bad flag'), 2],
    ['config', new ConfigError({ file: 'pmiyc.yaml', line: 1 }, 'bad'), 2],
    ['dataset', new DatasetError({ file: 'claims.csv', line: 2 }, 'bad'), 2],
    ['store', new StoreError({ path: 'runs.db', problem: 'missing' }, 'no store at runs.db'), 2],
    ['run-in-use', new RunInUseError('paper', holder, Date.parse(holder.heartbeatAt)), 2],
    ['disk-full', new StoreFullError('runs.db', 'SQLITE_FULL'), 2],
    ['provider', new ModelCallError('openai/x: 500', { provider: 'openai', model: 'x', reason: 'api', retryable: false }), 1],
    ['output', new OutputWriteError('out.csv', 'ENOSPC', 'no space left on device', 'free some space'), 1],
  ])('maps a %s error to exit %i with its message', (kind, error, code) => {
    expect(error.kind).toBe(kind);
    expect(exitCodeOf(error)).toEqual({ code, message: error.message });
  });

  it('maps a SQLite error that means a damaged store to exit 2', () => {
    const sqlite = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(exitCodeOf(sqlite)).toEqual({
      code: 2,
      message: 'the store is damaged (SQLite reports SQLITE_CORRUPT): restore it from a copy, or pass another --store',
    });
  });

  it('maps a full disk (or a file-size limit) met mid-run to exit 2, saying to free space and that nothing stored is lost', () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const mapped = exitCodeOf(full);
    expect(mapped.code).toBe(2);
    expect(mapped.unexpected).toBeUndefined();
    expect(mapped.message).toBe(
      'the disk is full (or a size limit was reached): free space, then run the command again; the store could not be written (SQLITE_FULL), ' +
        'and nothing stored so far is lost, as each write is kept whole or not at all (or copy the store to a disk with room and pass --store)',
    );
    for (const code of ['ENOSPC', 'EFBIG']) expect(exitCodeOf(Object.assign(new Error('write failed'), { code }))).toMatchObject({ code: 2 });
    expect(exitCodeOf(new StoreFullError('runs.db', 'SQLITE_FULL').forStoppedRun()).message).toMatch(
      /^the disk is full \(or a size limit was reached\): free space, then --resume; runs\.db could not be written \(SQLITE_FULL\)/,
    );
  });

  it('maps a store that cannot be written to exit 2, with how to make it writable and which commands read it as it is', () => {
    const readOnly = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    expect(exitCodeOf(readOnly)).toMatchObject({
      code: 2,
      message: expect.stringMatching(/^the store cannot be written \(SQLITE_READONLY: .*chmod u\+w.*`pmiyc runs`/),
    });
  });

  it('leaves the message of commander errors to commander: 0 for help, 2 for usage', () => {
    expect(exitCodeOf(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({ code: 0 });
    expect(exitCodeOf(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({ code: 2 });
  });

  it('calls anything else an unexpected error with exit 1', () => {
    expect(exitCodeOf(new TypeError('x is undefined'))).toEqual({ code: 1, message: 'unexpected error: x is undefined', unexpected: true });
    expect(exitCodeOf('thrown text')).toEqual({ code: 1, message: 'unexpected error: thrown text', unexpected: true });
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { DatasetError } from './dataset-error.js';
import { InputError } from './input-error.js';
import { isPmiycError } from './pmiyc-error.js';
import { StoreError } from './store-error.js';

describe('the error family', () => {
  it('builds a ConfigError message from file, line and key path', () => {
    const error = new ConfigError({ file: 'pmiyc.yaml', line: 5, keyPath: 'models.alpha' }, 'unknown key "temprature"');
    expect(error.message).toBe('pmiyc.yaml:5: models.alpha: unknown key "temprature"');
    expect(error).toMatchObject({
      name: 'ConfigError',
      kind: 'config',
      file: 'pmiyc.yaml',
      line: 5,
      keyPath: 'models.alpha',
      detail: 'unknown key "temprature"',
    });
    expect(new ConfigError({ file: 'pmiyc.yaml' }, 'not valid YAML').message).toBe('pmiyc.yaml: not valid YAML');
  });

  it('builds a DatasetError message from file and line; the column is a field only', () => {
    const error = new DatasetError({ file: 'claims.csv', line: 2, column: 3 }, 'not valid UTF-8');
    expect(error.message).toBe('claims.csv:2: not valid UTF-8');
    expect(error).toMatchObject({ kind: 'dataset', file: 'claims.csv', line: 2, column: 3, detail: 'not valid UTF-8' });
    expect(new DatasetError({ file: 'pairs.jsonl' }, 'the file has no pairs').message).toBe('pairs.jsonl: the file has no pairs');
    expect(new DatasetError({ file: 'tasks.json' }, 'is not JSON', { fileIsSubject: true }).message).toBe('tasks.json is not JSON');
  });

  it('leaves the message to a detail that names the file itself, and still carries the file', () => {
    const detail = 'cannot read claims.csv (EISDIR): check that it is a file you may read';
    expect(new DatasetError({ file: 'claims.csv' }, detail, { detailNamesFile: true })).toMatchObject({ message: detail, file: 'claims.csv', detail });
    const config = new ConfigError({ file: 'pmiyc.yaml' }, 'cannot read pmiyc.yaml (EISDIR): check that it is a file you may read', { detailNamesFile: true });
    expect(config).toMatchObject({ message: 'cannot read pmiyc.yaml (EISDIR): check that it is a file you may read', file: 'pmiyc.yaml', kind: 'config' });
  });

  it('keeps the store path, the problem and the SQLite code on a StoreError', () => {
    const error = new StoreError({ path: 'runs.db', problem: 'damaged', sqliteCode: 'SQLITE_CORRUPT' }, 'runs.db is damaged');
    expect(error).toMatchObject({ kind: 'store', path: 'runs.db', problem: 'damaged', sqliteCode: 'SQLITE_CORRUPT', message: 'runs.db is damaged' });
  });

  it('makes every input kind an InputError, and a plain InputError of kind input', () => {
    for (const error of [new ConfigError({ file: 'f' }, 'd'), new DatasetError({ file: 'f' }, 'd'), new StoreError({ path: 'p', problem: 'missing' }, 'm')]) {
      expect(error).toBeInstanceOf(InputError);
    }
    expect(new InputError('bad flag')).toMatchObject({ kind: 'input', name: 'InputError', message: 'bad flag' });
  });

  it('recognises its errors by a marker, also when another copy of pmiyc made them', () => {
    expect(isPmiycError(new InputError('x'))).toBe(true);
    expect(isPmiycError(new DatasetError({ file: 'f' }, 'd'))).toBe(true);
    expect(isPmiycError(new Error('x'))).toBe(false);
    expect(isPmiycError(undefined)).toBe(false);
    expect(isPmiycError('InputError')).toBe(false);
    // What a copy from another module instance looks like: the registered symbol, another class.
    const foreign = Object.assign(new Error('x'), { kind: 'input', [Symbol.for('pmiyc.error')]: true });
    expect(isPmiycError(foreign)).toBe(true);
  });
});

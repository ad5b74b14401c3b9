import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../domain/errors/config-error.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { readConfigFile, readTextFile } from './read-text-file.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-read-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What a read rejected with, for assertions on its class and fields. */
async function thrownBy(read: () => Promise<unknown>): Promise<unknown> {
  return read().then(
    () => {
      throw new Error('nothing was thrown');
    },
    (error: unknown) => error,
  );
}

describe('readTextFile and readConfigFile', () => {
  it("make a path given wrong a plain InputError with the caller's words: the file is not at fault, the flag is", async () => {
    const path = join(folder, 'absent.csv');
    for (const read of [readTextFile, readConfigFile]) {
      const error = await thrownBy(() => read(path, `no file at ${path}: check --claims`));
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ kind: 'input', message: `no file at ${path}: check --claims` });
    }
  });

  it('make a file that cannot be read a DatasetError or a ConfigError naming it, with the same message', async () => {
    const path = join(folder, 'a-folder.csv');
    mkdirSync(path);
    const message = `${path} is a folder, not a file: give the path of a file in it`;
    const data = await thrownBy(() => readTextFile(path, 'unused'));
    expect(data).toBeInstanceOf(DatasetError);
    expect(data).toMatchObject({ kind: 'dataset', file: path, message });
    const config = await thrownBy(() => readConfigFile(path, 'unused'));
    expect(config).toBeInstanceOf(ConfigError);
    expect(config).toMatchObject({ kind: 'config', file: path, message });
  });

  it('give a config file a smaller cap than a data file', async () => {
    const path = join(folder, 'large.yaml');
    writeFileSync(path, `# ${'x'.repeat(2 * 2 ** 20)}\n`);
    expect(await readTextFile(path, 'unused')).toHaveLength(2 * 2 ** 20 + 3);
    expect(await thrownBy(() => readConfigFile(path, 'unused'))).toMatchObject({
      kind: 'config',
      file: path,
      message: `${path} is 2 MB, more than the 1 MB pmiyc reads from a config file: check that it is the right file, or split it`,
    });
  });

  it('make a config file that is not UTF-8 a ConfigError with its line, worded as for a data file', async () => {
    const path = join(folder, 'pmiyc.yaml');
    writeFileSync(path, Buffer.concat([Buffer.from('models: {}\n# caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const message = `${path}:2: not valid UTF-8 (byte 0xe9 at column 6): save the file as UTF-8`;
    expect(await thrownBy(() => readTextFile(path, 'unused'))).toMatchObject({ kind: 'dataset', file: path, line: 2, column: 6, message });
    const config = await thrownBy(() => readConfigFile(path, 'unused'));
    expect(config).toBeInstanceOf(ConfigError);
    expect(config).toMatchObject({ kind: 'config', file: path, line: 2, message });
  });

  it('read a good file as its text, without the byte order mark', async () => {
    const path = join(folder, 'claims.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"claim": "x"}\n')]));
    expect(await readTextFile(path, 'unused')).toBe('{"claim": "x"}\n');
    expect(await readConfigFile(path, 'unused')).toBe('{"claim": "x"}\n');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentWithDotEnv } from './dot-env.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-dot-env-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fresh working folder for one case. */
function workingFolder(name: string): string {
  const path = join(folder, name);
  mkdirSync(path);
  return path;
}

const REMEDY = 'pmiyc reads the variables of .env in the working folder: make it a regular file you may read, or export them in the shell and move it away';

describe('environmentWithDotEnv', () => {
  it("adds .env's variables where the shell does not set them", async () => {
    const here = workingFolder('plain');
    writeFileSync(join(here, '.env'), 'A_KEY=from-file\nB_KEY=from-file\n');
    expect(await environmentWithDotEnv({ B_KEY: 'from-shell' }, here)).toEqual({ A_KEY: 'from-file', B_KEY: 'from-shell' });
  });

  it('passes over no .env and a folder called .env (a Python virtual environment)', async () => {
    expect(await environmentWithDotEnv({ X: '1' }, workingFolder('none'))).toEqual({ X: '1' });
    const venv = workingFolder('venv');
    mkdirSync(join(venv, '.env'));
    expect(await environmentWithDotEnv({ X: '1' }, venv)).toEqual({ X: '1' });
  });

  it('refuses a .env that is a FIFO at once, one over 1 MB, and one that is not UTF-8, saying what to do', async () => {
    const pipe = workingFolder('pipe');
    execFileSync('mkfifo', [join(pipe, '.env')]);
    await expect(environmentWithDotEnv({}, pipe)).rejects.toMatchObject({
      kind: 'input',
      message: `${join(pipe, '.env')} is a named pipe (FIFO), not a file: ${REMEDY}`,
    });
    const large = workingFolder('large');
    writeFileSync(join(large, '.env'), '');
    truncateSync(join(large, '.env'), 2 ** 20 + 1);
    await expect(environmentWithDotEnv({}, large)).rejects.toMatchObject({
      message: `${join(large, '.env')} is larger than the 1 MB pmiyc reads from a .env file: ${REMEDY}`,
    });
    const latin1 = workingFolder('latin1');
    writeFileSync(join(latin1, '.env'), Buffer.from([0x41, 0x3d, 0xe9, 0x0a]));
    await expect(environmentWithDotEnv({}, latin1)).rejects.toMatchObject({ kind: 'dataset', line: 1 });
  });
});

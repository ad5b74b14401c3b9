import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { officialResultsSources } from './official-results-files.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-official-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('officialResultsSources', () => {
  it('finds every results.json under a folder and reads each with its sha256', async () => {
    const experiment = join(folder, 'found', 'multi_turn_subj', 'a_b_0');
    mkdirSync(experiment, { recursive: true });
    writeFileSync(join(experiment, 'results.json'), '[]');
    const [source, ...others] = await officialResultsSources([join(folder, 'found')]);
    expect(others).toEqual([]);
    expect(await source!.read()).toEqual({ text: '[]', sha256: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945' });
  });

  it('blames the argument for a path with nothing there, and the file for one it cannot read', async () => {
    await expect(officialResultsSources([join(folder, 'nothing')])).rejects.toThrow(InputError);
    const path = join(folder, 'results.json');
    writeFileSync(path, '[]');
    const [source] = await officialResultsSources([path]);
    // Replaced by a folder after it was found: read, it cannot be.
    rmSync(path);
    mkdirSync(path);
    const error = await source!.read().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({ file: path, message: `${path} is a folder, not a file: give the path of a file in it` });
  });

  it('takes a results.json in a folder that is a link, and refuses one that is not a regular file, rather than passing over either', async () => {
    const tree = join(folder, 'linked', 'multi_turn_subj');
    mkdirSync(join(tree, 'a_b_0'), { recursive: true });
    mkdirSync(join(tree, 'b_a_0'), { recursive: true });
    writeFileSync(join(folder, 'elsewhere.json'), '[]');
    symlinkSync(join(folder, 'elsewhere.json'), join(tree, 'a_b_0', 'results.json'));
    symlinkSync('/dev/null', join(tree, 'b_a_0', 'results.json'));
    const [linked, device] = await officialResultsSources([join(folder, 'linked')]);
    expect((await linked!.read()).text).toBe('[]');
    await expect(device!.read()).rejects.toMatchObject({
      kind: 'dataset',
      message: `${join(tree, 'b_a_0', 'results.json')} is a character device, not a file: give the path of a regular file (pmiyc reads no pipes, devices or sockets)`,
    });
  });

  // Root reads any folder.
  it.skipIf(process.getuid?.() === 0)('says which folder it cannot read', async () => {
    const locked = join(folder, 'locked');
    mkdirSync(join(locked, 'inner'), { recursive: true });
    chmodSync(join(locked, 'inner'), 0o000);
    try {
      await expect(officialResultsSources([locked])).rejects.toMatchObject({
        kind: 'input',
        message: `cannot read the folder ${join(locked, 'inner')} (EACCES): check that it is a folder you may read`,
      });
    } finally {
      chmodSync(join(locked, 'inner'), 0o755);
    }
  });
});

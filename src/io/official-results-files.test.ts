import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { officialResultsSources } from './official-results-files.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-official-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('officialResultsSources', () => {
  it('finds every results.json under a folder and reads each with its sha256', () => {
    const experiment = join(folder, 'found', 'multi_turn_subj', 'a_b_0');
    mkdirSync(experiment, { recursive: true });
    writeFileSync(join(experiment, 'results.json'), '[]');
    const [source, ...others] = officialResultsSources([join(folder, 'found')]);
    expect(others).toEqual([]);
    expect(source!.read()).toEqual({ text: '[]', sha256: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945' });
  });

  it('blames the argument for a path with nothing there, and the file for one it cannot read', () => {
    expect(() => officialResultsSources([join(folder, 'nothing')])).toThrow(InputError);
    const path = join(folder, 'results.json');
    writeFileSync(path, '[]');
    const [source] = officialResultsSources([path]);
    // Replaced by a folder after it was found: read, it cannot be.
    rmSync(path);
    mkdirSync(path);
    let error: unknown;
    try {
      source!.read();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({ file: path, message: `cannot read ${path} (EISDIR): check that it is a file you may read` });
  });
});

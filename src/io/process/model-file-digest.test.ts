import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../models/model-settings.js';
import { ResultStore } from '../../store/result-store.js';
import { modelFileSha256 } from './model-file-digest.js';

let folder: string;
let store: ResultStore;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-digest-'));
  store = ResultStore.open(join(folder, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const llama = (model: string): ModelSettings => ({ name: `llama/${model}`, provider: 'llama', model, timeoutMs: 1, maxRetries: 0 });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('modelFileSha256', () => {
  it('hashes a GGUF file once per version: a replaced file at the same path is a new model', () => {
    const path = join(folder, 'model.gguf');
    writeFileSync(path, 'weights, version one');
    utimesSync(path, 1_000, 1_000);
    const hashed: string[] = [];
    const onHashing = (file: string) => hashed.push(file);
    expect(modelFileSha256(llama(path), store, onHashing)).toBe(sha256('weights, version one'));
    expect(modelFileSha256(llama(path), store, onHashing)).toBe(sha256('weights, version one'));
    expect(hashed).toEqual([path]);

    writeFileSync(path, 'weights, version two');
    utimesSync(path, 2_000, 2_000);
    expect(modelFileSha256(llama(path), store, onHashing)).toBe(sha256('weights, version two'));
    expect(hashed).toHaveLength(2);
  });

  it('has nothing to hash for other providers and for hf: models, and says when the file is missing', () => {
    expect(modelFileSha256({ ...llama('x'), provider: 'vllm' }, store)).toBeUndefined();
    expect(modelFileSha256(llama('hf:user/repo/model.gguf'), store)).toBeUndefined();
    expect(() => modelFileSha256(llama(join(folder, 'missing.gguf')), store)).toThrow('no GGUF file at');
    expect(() => modelFileSha256(llama('/dev/zero'), store)).toThrow(
      '/dev/zero is not a regular file (a folder, pipe or device): give the path of a .gguf file after llama/',
    );
  });
});

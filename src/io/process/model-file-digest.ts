import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../domain/errors/input-error.js';
import type { ModelSettings } from '../../models/model-settings.js';
import type { RunRecords } from '../../runner/run-records.js';

const CHUNK_BYTES = 8 * 1024 * 1024;

function sha256OfFile(path: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const descriptor = openSync(path, 'r');
  try {
    for (let read = readSync(descriptor, buffer, 0, CHUNK_BYTES, null); read > 0; read = readSync(descriptor, buffer, 0, CHUNK_BYTES, null)) {
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
  return hash.digest('hex');
}

/**
 * The sha256 of an in-process model's GGUF file, so that a file replaced at the same path is a new
 * model for the call cache. Hashing a large file takes seconds, so the digest is kept in the store
 * by path, size and modification time. Undefined for `hf:` models (downloaded on first use: their
 * URI names them) and for non-llama models.
 */
export function modelFileSha256(
  settings: ModelSettings,
  store: Pick<RunRecords, 'knownFileSha256' | 'rememberFileSha256'>,
  onHashing?: (path: string) => void,
): string | undefined {
  if (settings.provider !== 'llama' || settings.model.startsWith('hf:')) return undefined;
  const path = resolve(settings.model);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new InputError(`no GGUF file at ${settings.model}: check the path after llama/`);
  }
  // Opened to be hashed, a FIFO would wait for a writer and /dev/zero would never end.
  if (!stats.isFile()) throw new InputError(`${settings.model} is not a regular file (a folder, pipe or device): give the path of a .gguf file after llama/`);
  const known = store.knownFileSha256(path, stats.size, stats.mtimeMs);
  if (known) return known;
  onHashing?.(path);
  const digest = sha256OfFile(path);
  store.rememberFileSha256(path, stats.size, stats.mtimeMs, digest);
  return digest;
}

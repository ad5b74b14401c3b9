import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { OutputWriteError } from '../../io/output-write-error.js';
import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';
import { exportCommand } from './export.js';

const CONVERSATIONS = 40;
let folder: string;
let storePath: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-export-'));
  storePath = join(folder, 'export.db');
  const store = ResultStore.open(storePath);
  const run = store.createRun({ name: 'big', createdAt: '2026-11-30T10:00:00Z', seed: 1, packageVersion: '9.9.9', config: {} });
  for (let index = 0; index < CONVERSATIONS; index += 1) {
    const record = handRecord({ persuader: 'A', persuadee: 'B', claim: `claim ${index}`, turns: 3, persuadeeScores: [2], final: 3 });
    store.saveConversation(run.id, { ...record, run: 'big' });
  }
  store.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const systemError = (code: string) => Object.assign(new Error(`${code}: failed, write`), { code });

/**
 * A slow standard output with a tiny buffer (so every write waits for `drain`) that accepts
 * `accepted` chunks and then fails every write with `code`, as /dev/full or a closed pipe does.
 */
function stdoutFailingAfter(accepted: number, code?: string, highWaterMark = 1) {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      if (code && chunks.length >= accepted) {
        setImmediate(() => callback(systemError(code)));
        return;
      }
      chunks.push(chunk.toString());
      setImmediate(callback);
    },
  });
  const context = { stdout: stream, stderr: stream, env: {}, now: () => new Date(), packageVersion: '9.9.9' } as unknown as CliContext;
  return { context, chunks };
}

describe('pmiyc export on a stream that waits, fails or loses its reader', () => {
  it('writes every line through a slow reader, waiting for it', async () => {
    const { context, chunks } = stdoutFailingAfter(Number.POSITIVE_INFINITY);
    expect(await exportCommand({ store: storePath, format: 'jsonl' }, context)).toBe(0);
    expect(chunks).toHaveLength(CONVERSATIONS);
    expect(chunks.every((chunk) => (JSON.parse(chunk) as { run: string }).run === 'big')).toBe(true);
  });

  it('stops with one line naming standard output when the disk is full (ENOSPC)', async () => {
    const { context, chunks } = stdoutFailingAfter(5, 'ENOSPC');
    const attempt = exportCommand({ store: storePath, format: 'csv' }, context);
    await expect(attempt).rejects.toBeInstanceOf(OutputWriteError);
    await expect(attempt).rejects.toThrow(/^cannot write standard output: no space left on device \(ENOSPC\); free some space and run the export again$/);
    expect(chunks).toHaveLength(5);
  });

  it('ends quietly with code 0 when the reader goes away (EPIPE)', async () => {
    const { context, chunks } = stdoutFailingAfter(1, 'EPIPE');
    expect(await exportCommand({ store: storePath, format: 'jsonl' }, context)).toBe(0);
    expect(chunks).toHaveLength(1);
  });

  it('waits for the last writes to reach the system, and notices when they fail', async () => {
    // A buffer big enough for the whole export: no write waits, the failure arrives after the loop.
    const { context } = stdoutFailingAfter(CONVERSATIONS - 1, 'EIO', 1 << 20);
    await expect(exportCommand({ store: storePath, format: 'jsonl' }, context)).rejects.toThrow('input/output error (EIO)');
  });
});

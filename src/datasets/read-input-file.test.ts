import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_FILE_LIMITS, readInputFile } from './read-input-file.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-input-file-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const small = { maxBytes: 10, of: 'a test file' };

describe('readInputFile', () => {
  it('reads a regular file whole, and says missing for a path with nothing there', async () => {
    const path = join(folder, 'claims.csv');
    writeFileSync(path, 'claim\nTea\n');
    const read = await readInputFile(path, INPUT_FILE_LIMITS.data);
    expect(read.status === 'read' && Buffer.from(read.bytes).toString()).toBe('claim\nTea\n');
    expect(await readInputFile(join(folder, 'absent.csv'), INPUT_FILE_LIMITS.data)).toEqual({ status: 'missing' });
  });

  it('refuses a folder, a FIFO, a character device and a socket by what they are, without waiting on any', async () => {
    const fifo = join(folder, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const socketPath = join(folder, 'socket');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const cases = [
        [folder, 'folder', `${folder} is a folder, not a file: give the path of a file in it`],
        [fifo, 'named pipe (FIFO)', `${fifo} is a named pipe (FIFO), not a file: give the path of a regular file (pmiyc reads no pipes, devices or sockets)`],
        [
          '/dev/zero',
          'character device',
          '/dev/zero is a character device, not a file: give the path of a regular file (pmiyc reads no pipes, devices or sockets)',
        ],
        [socketPath, 'socket', `${socketPath} is a socket, not a file: give the path of a regular file (pmiyc reads no pipes, devices or sockets)`],
      ];
      for (const [path, type, detail] of cases) expect(await readInputFile(path!, INPUT_FILE_LIMITS.data)).toEqual({ status: 'not-a-file', type, detail });
    } finally {
      server.close();
    }
  });

  it('refuses a file over the cap by its size, before reading it (a sparse file of 256 MB and a byte)', async () => {
    const path = join(folder, 'huge.json');
    writeFileSync(path, '');
    truncateSync(path, INPUT_FILE_LIMITS.data.maxBytes + 1);
    expect(await readInputFile(path, INPUT_FILE_LIMITS.data)).toEqual({
      status: 'too-large',
      sizeBytes: 268_435_457,
      maxBytes: 268_435_456,
      detail: `${path} is 268435457 bytes, more than the 256 MB pmiyc reads from a data file: check that it is the right file, or split it`,
    });
    truncateSync(path, 300.5 * 2 ** 20);
    expect(await readInputFile(path, INPUT_FILE_LIMITS.data)).toMatchObject({ detail: expect.stringContaining(' is 300.5 MB, more than the 256 MB ') });
  });

  it.skipIf(process.platform !== 'linux')('stops at the cap in a file that says it is empty (as /proc files do) and reads one under it', async () => {
    const read = await readInputFile('/proc/self/status', small);
    expect(read).toMatchObject({
      status: 'too-large',
      sizeBytes: undefined,
      detail: '/proc/self/status holds more than 0 MB, more than the 0 MB pmiyc reads from a test file: check that it is the right file, or split it',
    });
    const whole = await readInputFile('/proc/self/status', INPUT_FILE_LIMITS.env);
    expect(whole.status === 'read' && Buffer.from(whole.bytes).toString()).toMatch(/^Name:/);
  });

  it('lets the event loop turn while it reads, so that a signal is answered', async () => {
    const path = join(folder, 'results.json');
    writeFileSync(path, Buffer.alloc(32 * 2 ** 20, 0x20));
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    const read = await readInputFile(path, INPUT_FILE_LIMITS.data);
    done = true;
    expect(read.status === 'read' && read.bytes.length).toBe(32 * 2 ** 20);
    expect(turns).toBeGreaterThan(0);
  });
});

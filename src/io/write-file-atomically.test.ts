import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputWriteError, toOutputWriteError } from './output-write-error.js';
import { type AtomicWriteFileSystem, NODE_FILE_SYSTEM, writeFileAtomically, writeFilesAtomically } from './write-file-atomically.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-atomic-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const systemError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}, write`), { code });

/** Node's file system, except that the `failOn`-th new file gets half its text and then ENOSPC. */
function fullDiskAfter(failOn: number): AtomicWriteFileSystem {
  let written = 0;
  return {
    ...NODE_FILE_SYSTEM,
    writeNewFile: async (path, content) => {
      written += 1;
      if (written < failOn) return NODE_FILE_SYSTEM.writeNewFile(path, content);
      const text = typeof content === 'string' ? content : [...content].join('');
      await writeFile(path, text.slice(0, text.length / 2), { flag: 'wx' });
      throw systemError('ENOSPC', 'no space left on device');
    },
  };
}

describe('writeFilesAtomically', () => {
  it('writes every file, creating folders, and leaves no temporary file', async () => {
    const out = join(folder, 'fresh');
    await writeFilesAtomically([
      { path: join(out, 'index.html'), content: '<p>new</p>' },
      { path: join(out, 'charts', 'a.svg'), content: '<svg/>' },
    ]);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('<p>new</p>');
    expect(readdirSync(out, { recursive: true }).sort()).toEqual(['charts', 'charts/a.svg', 'index.html']);
  });

  it('on a failed second file keeps the earlier complete files, removes every temporary file and says so in one line', async () => {
    const out = join(folder, 'full-disk');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'old html');
    writeFileSync(join(out, 'report.md'), 'old markdown');
    const attempt = writeFilesAtomically(
      [
        { path: join(out, 'index.html'), content: 'new html' },
        { path: join(out, 'report.md'), content: 'new markdown, long enough to be cut in half' },
        { path: join(out, 'report.json'), content: '{}' },
      ],
      { fileSystem: fullDiskAfter(2), advice: { again: 'run the report again', elsewhere: 'another folder with --out' } },
    );
    await expect(attempt).rejects.toThrow(OutputWriteError);
    const error = (await attempt.catch((caught: unknown) => caught)) as OutputWriteError;
    expect(error.message).toBe(`cannot write ${join(out, 'report.md')}: no space left on device (ENOSPC); free some space and run the report again`);
    expect(error.message).not.toContain('\n');
    expect(error.code).toBe('ENOSPC');
    expect(readdirSync(out).sort()).toEqual(['index.html', 'report.md']);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old html');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe('old markdown');
  });

  it('replaces an existing file whole', async () => {
    const path = join(folder, 'one.txt');
    writeFileSync(path, 'a much longer earlier version');
    await writeFileAtomically(path, 'short');
    expect(readFileSync(path, 'utf8')).toBe('short');
  });

  it('names the file when a part of its path is a file, not a folder', async () => {
    writeFileSync(join(folder, 'plain-file'), '');
    const target = join(folder, 'plain-file', 'out', 'index.html');
    await expect(writeFileAtomically(target, 'x', { advice: { again: 'try again', elsewhere: 'another folder with --out' } })).rejects.toThrow(
      `cannot write ${target}: part of the path is a file, not a folder (ENOTDIR); rename that file or write to another folder with --out`,
    );
  });

  it('lets an error without a system code through: it is a defect, not the machine refusing', async () => {
    const defect = new TypeError('bad argument');
    const fileSystem: AtomicWriteFileSystem = {
      ...NODE_FILE_SYSTEM,
      writeNewFile: () => Promise.reject(defect),
    };
    await expect(writeFileAtomically(join(folder, 'defect.txt'), 'x', { fileSystem })).rejects.toBe(defect);
    expect(readdirSync(folder).filter((name) => name.includes('defect'))).toEqual([]);
  });
});

describe('toOutputWriteError', () => {
  const advice = { again: 'run the export again', elsewhere: 'a file' };
  it.each([
    ['EACCES', 'permission denied (EACCES); allow writing there or write to a file'],
    ['EROFS', 'read-only file system (EROFS); write to a file'],
    ['EPIPE', 'the reader closed the pipe (EPIPE); keep the reader open and run the export again'],
  ])('explains %s with a remedy', (code, expected) => {
    expect((toOutputWriteError(systemError(code, 'whatever'), 'standard output', advice) as Error).message).toBe(`cannot write standard output: ${expected}`);
  });

  it('falls back on the system message for an unknown code', () => {
    expect((toOutputWriteError(systemError('EWEIRD', 'something odd'), 'x.csv', advice) as Error).message).toBe(
      'cannot write x.csv: something odd (EWEIRD); check x.csv and run the export again',
    );
  });
});

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { toOutputWriteError, type WriteAdvice } from './output-write-error.js';

/** The file-system calls an atomic write makes; tests pass one that fails on cue. */
export interface AtomicWriteFileSystem {
  /** Creates the folder and its parents (no error when it exists). */
  readonly makeFolder: (path: string) => Promise<void>;
  /** Creates `path`, which must not exist, writes `content` and flushes it to the disk. */
  readonly writeNewFile: (path: string, content: FileContent) => Promise<void>;
  readonly rename: (from: string, to: string) => Promise<void>;
  /** Removes a file; no error when it is gone. */
  readonly remove: (path: string) => Promise<void>;
}

/** Node's file system. Content is synced before the rename, so a crash cannot leave a renamed but empty file. */
export const NODE_FILE_SYSTEM: AtomicWriteFileSystem = {
  makeFolder: async (path) => {
    await mkdir(path, { recursive: true });
  },
  writeNewFile: async (path, content) => {
    const handle = await open(path, 'wx');
    try {
      await writeFile(handle, content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename,
  remove: (path) => rm(path, { force: true }),
};

/**
 * A file's text: whole, or in chunks made as they are written (a generator), so that a large file
 * (a report's per-claim CSV) is never in memory at once.
 */
type FileContent = string | Iterable<string>;

/** A file to write: where, and its text. */
export interface FileToWrite {
  readonly path: string;
  readonly content: FileContent;
}

export interface AtomicWriteOptions {
  /** How to advise the user when the write fails (default: "try again", "another place"). */
  readonly advice?: WriteAdvice;
  readonly fileSystem?: AtomicWriteFileSystem;
}

const DEFAULT_ADVICE: WriteAdvice = { again: 'try again', elsewhere: 'another place' };

/** `.index.html.pmiyc-1a2b3c4d.tmp` beside `index.html`: same folder, so the rename never crosses file systems. */
function temporaryPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.pmiyc-${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes files so that each one is either its earlier complete version or the new complete one,
 * never a part. Every file is first written to a temporary file in its own folder; only when all of
 * them are written are they renamed over their targets (a rename within a folder is atomic). When a
 * write fails, every temporary file is removed, no target is touched, and an `OutputWriteError`
 * naming the file, the reason and a remedy is thrown (errors without a system code pass through).
 * A process killed mid-write can leave a `.<name>.pmiyc-*.tmp` file behind, never a truncated target.
 */
export async function writeFilesAtomically(files: readonly FileToWrite[], options: AtomicWriteOptions = {}): Promise<void> {
  const fileSystem = options.fileSystem ?? NODE_FILE_SYSTEM;
  const advice = options.advice ?? DEFAULT_ADVICE;
  const staged: Array<{ temporary: string; path: string }> = [];
  const removeStaged = () => Promise.all(staged.map((entry) => fileSystem.remove(entry.temporary).catch(() => undefined)));
  let current = files[0]?.path ?? '';
  try {
    for (const file of files) {
      current = file.path;
      await fileSystem.makeFolder(dirname(file.path));
      const temporary = temporaryPathFor(file.path);
      // Staged before the write: a write that fails half-way leaves a temporary file to remove.
      staged.push({ temporary, path: file.path });
      await fileSystem.writeNewFile(temporary, file.content);
    }
    while (staged.length > 0) {
      const entry = staged[0]!;
      current = entry.path;
      await fileSystem.rename(entry.temporary, entry.path);
      staged.shift();
    }
  } catch (error) {
    await removeStaged();
    throw toOutputWriteError(error, current, advice);
  }
}

/** Writes one file atomically: see `writeFilesAtomically`. */
export function writeFileAtomically(path: string, content: string, options: AtomicWriteOptions = {}): Promise<void> {
  return writeFilesAtomically([{ path, content }], options);
}

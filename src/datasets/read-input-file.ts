import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

const MiB = 2 ** 20;

/** The most pmiyc reads of one kind of input file, and how a message names that kind. */
export interface InputFileLimit {
  readonly maxBytes: number;
  /** `a data file`: completes "more than the 256 MB pmiyc reads from ...". */
  readonly of: string;
}

/**
 * The caps by kind. A data file (official results, claims, pairs, answers, tasks, labels) may be large:
 * the official code's biggest results.json files are tens of MB. A config, taxonomy or .env file is written by hand
 * (and yaml parses a MB of config in seconds: a larger one would keep pmiyc busy for minutes).
 * Past a cap the file is not what the user meant (or is a trap): it is refused before it is read.
 */
export const INPUT_FILE_LIMITS = {
  data: { maxBytes: 256 * MiB, of: 'a data file' },
  config: { maxBytes: 1 * MiB, of: 'a config file' },
  taxonomy: { maxBytes: 1 * MiB, of: 'a taxonomy file' },
  env: { maxBytes: 1 * MiB, of: 'a .env file' },
} as const satisfies Record<string, InputFileLimit>;

/** What is at a path that is not a regular file, in words. */
type NotAFileType = 'folder' | 'named pipe (FIFO)' | 'character device' | 'block device' | 'socket' | 'special file';

/** A file read whole, or why it was not: failures are data, the caller makes its own error of them. */
export type InputFileRead =
  | { readonly status: 'read'; readonly bytes: Uint8Array }
  | { readonly status: 'missing' }
  /** Each `detail` below is a whole sentence naming the file and saying what to do. */
  | { readonly status: 'not-a-file'; readonly type: NotAFileType; readonly detail: string }
  | { readonly status: 'too-large'; readonly sizeBytes: number | undefined; readonly maxBytes: number; readonly detail: string }
  | { readonly status: 'unreadable'; readonly code: string; readonly detail: string; readonly cause: unknown };

function typeOf(stats: Stats): NotAFileType {
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  return 'special file';
}

function notAFile(path: string, stats: Stats): InputFileRead {
  const type = typeOf(stats);
  const remedy = type === 'folder' ? 'give the path of a file in it' : 'give the path of a regular file (pmiyc reads no pipes, devices or sockets)';
  return { status: 'not-a-file', type, detail: `${path} is a ${type}, not a file: ${remedy}` };
}

/** A size in MB (2^20 bytes) as a message says it, to a tenth: `300.5 MB`, `256 MB`. */
function megabytes(bytes: number): string {
  return `${Number((bytes / MiB).toFixed(1))} MB`;
}

function tooLarge(path: string, sizeBytes: number | undefined, limit: InputFileLimit): InputFileRead {
  const cap = megabytes(limit.maxBytes);
  // A file just over the cap would read "is 256 MB, more than the 256 MB": its bytes say it better.
  const sizeText = sizeBytes === undefined ? undefined : megabytes(sizeBytes) === cap ? `${sizeBytes} bytes` : megabytes(sizeBytes);
  const size = sizeText === undefined ? `holds more than ${cap}` : `is ${sizeText}`;
  return {
    status: 'too-large',
    sizeBytes,
    maxBytes: limit.maxBytes,
    detail: `${path} ${size}, more than the ${cap} pmiyc reads from ${limit.of}: check that it is the right file, or split it`,
  };
}

function failureOf(path: string, error: unknown): InputFileRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { status: 'missing' };
  const why = code ?? (error as Error).message;
  return { status: 'unreadable', code: why, detail: `cannot read ${path} (${why}): check that it is a file you may read`, cause: error };
}

/** Reads from the handle's position to the end; undefined once more than `maxBytes` came (a file that grew, or says size 0 as /proc's do). */
async function readToEnd(handle: FileHandle, sizeBytes: number, maxBytes: number): Promise<Uint8Array | undefined> {
  // One byte over the expected size: a read that fills it means the file is longer than it said.
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeBytes, 64 * 1024), maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}

/**
 * The bytes of a file a user named, read asynchronously (a signal is answered while a large file is
 * read) and only if it is a regular file of at most `limit.maxBytes`. What is not a regular file is
 * refused before it is opened to read: opening a FIFO waits for a writer, and /dev/zero never ends.
 * The open does not wait either (O_NONBLOCK), should the path have become a FIFO since it was looked at.
 */
export async function readInputFile(path: string, limit: InputFileLimit): Promise<InputFileRead> {
  let handle: FileHandle;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return notAFile(path, stats);
    if (stats.size > limit.maxBytes) return tooLarge(path, stats.size, limit);
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return failureOf(path, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return notAFile(path, stats);
    if (stats.size > limit.maxBytes) return tooLarge(path, stats.size, limit);
    const bytes = await readToEnd(handle, stats.size, limit.maxBytes);
    return bytes === undefined ? tooLarge(path, undefined, limit) : { status: 'read', bytes };
  } catch (error) {
    return failureOf(path, error);
  } finally {
    await handle.close();
  }
}

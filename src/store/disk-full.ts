import { execFileSync } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Free space below this on the store's file system makes an I/O error a full disk's. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * Why a write was refused, when it was for want of room: SQLite says SQLITE_FULL when the disk is full
 * (ENOSPC) or a write came up short, and the system's ENOSPC or EFBIG may come as they are. A file-size limit
 * (`ulimit -f`, RLIMIT_FSIZE) makes a write past it fail with EFBIG (Node ignores the SIGXFSZ that comes with it,
 * so the process lives), which SQLite reports as an I/O error (SQLITE_IOERR_WRITE) without the errno: such an
 * error is taken for a size limit when one is set, or for a full disk when the store's file system has less
 * than 1 MB free. Other I/O errors (a failing disk) are not. `path` is the store's, or undefined when unknown.
 */
export function isDiskFull(code: string, path: string | undefined): boolean {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EFBIG') return true;
  if (!code.startsWith('SQLITE_IOERR')) return false;
  return fileSizeLimited() || (path !== undefined && freeBytesBeside(path) < NEARLY_FULL_BYTES);
}

/** Whether this process may write files only up to a size (RLIMIT_FSIZE): on Linux from /proc, elsewhere from the shell it would start. */
function fileSizeLimited(): boolean {
  try {
    if (process.platform === 'linux') {
      const line = readFileSync('/proc/self/limits', 'utf8')
        .split('\n')
        .find((row) => row.startsWith('Max file size'));
      return line !== undefined && line.split(/\s{2,}/)[1] !== 'unlimited';
    }
    if (process.platform === 'win32') return false;
    // A child inherits the limit: `ulimit -f` prints it, or "unlimited".
    return execFileSync('sh', ['-c', 'ulimit -f'], { encoding: 'utf8', timeout: 2_000 }).trim() !== 'unlimited';
  } catch {
    return false;
  }
}

function freeBytesBeside(path: string): number {
  try {
    const stats = statfsSync(dirname(path));
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

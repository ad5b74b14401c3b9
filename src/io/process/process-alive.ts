import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Whether a process of this host is alive, for judging who holds a run (docs/design/run-ownership.md). Signal 0
 * says whether the pid exists (EPERM: it does, owned by another user), but a process killed and not yet reaped
 * by its parent (a zombie) exists too, and a parent that never reaps (a shell as a container's PID 1, a busy
 * supervisor) keeps it so for good: its state tells it apart. On Linux the state is read from /proc/PID/stat;
 * on macOS and the BSDs from `ps -o stat=`; elsewhere (Windows, which has no zombies) signal 0 is all there is.
 * When the state cannot be read, the answer is signal 0's: a holder wrongly taken for alive is still freed
 * by its silent heartbeat (`LEASE_STALE_MS`), while one wrongly taken for dead would have its run taken.
 */
export function isProcessAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (!pidExists(pid)) return false;
  const state = processState(pid, platform);
  return state === undefined || !isDeadState(state);
}

/** Signal 0: delivered to nobody, it only checks that the pid exists. */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Z: a zombie (killed or ended, not yet reaped); X: dead, being removed. */
function isDeadState(state: string): boolean {
  return state === 'Z' || state === 'X';
}

/** The process's one-letter state, or undefined when this platform cannot tell (or the process is gone meanwhile). */
function processState(pid: number, platform: NodeJS.Platform): string | undefined {
  if (platform === 'linux' || platform === 'android') return procStatState(pid);
  if (platform === 'darwin' || platform === 'freebsd' || platform === 'openbsd' || platform === 'netbsd' || platform === 'sunos') return psState(pid);
  return undefined;
}

function procStatState(pid: number): string | undefined {
  try {
    return stateInProcStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** `ps -o stat= -p PID`: its first letter is the state (Z for a zombie); only asked of a pid that exists. */
function psState(pid: number): string | undefined {
  try {
    const line = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return line.trim().charAt(0) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The state field of a /proc/PID/stat line: `PID (COMM) STATE ...`. COMM is the program's name, which may
 * hold spaces and parentheses of its own (a program named `x) Z (`), so the state is the field after the
 * last `)`, never the third word.
 */
export function stateInProcStat(line: string): string | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const state = line
    .slice(close + 1)
    .trimStart()
    .split(' ', 1)[0];
  return state ? state : undefined;
}

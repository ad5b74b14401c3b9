import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive, stateInProcStat } from './process-alive.js';

describe('stateInProcStat', () => {
  it('reads the field after the last parenthesis, whatever the program is called', () => {
    expect(stateInProcStat('4242 (node) S 1 4242 4242 0 -1 4194560')).toBe('S');
    expect(stateInProcStat('4242 (pmiyc run) Z 1 4242')).toBe('Z');
    // A program may name itself with spaces and parentheses: "x) Z (y" is its name, not its state.
    expect(stateInProcStat('4242 (x) Z (y) R 1 4242')).toBe('R');
    expect(stateInProcStat('4242 ()) X 1')).toBe('X');
    expect(stateInProcStat('garbage')).toBeUndefined();
    expect(stateInProcStat('4242 (node)')).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('isProcessAlive', () => {
  const parents: Array<ReturnType<typeof spawn>> = [];
  afterAll(() => {
    for (const parent of parents) parent.kill('SIGKILL');
  });

  /** A child killed with -9 under a parent (`sh` exec'd into `sleep`) that never reaps it. */
  async function zombie(): Promise<number> {
    const parent = spawn('sh', ['-c', 'sleep 1000 & echo $!; exec sleep 1000'], { stdio: ['ignore', 'pipe', 'ignore'] });
    parents.push(parent);
    const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    // Until the shell has become `sleep`, it may still reap its child (then there is no zombie to test).
    for (let tries = 0; readFileSync(`/proc/${parent.pid}/comm`, 'latin1').trim() !== 'sleep'; tries++) {
      if (tries > 500) throw new Error(`the shell ${parent.pid} did not exec into sleep`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.kill(pid, 'SIGKILL');
    for (let tries = 0; stateInProcStat(readFileSync(`/proc/${pid}/stat`, 'latin1')) !== 'Z'; tries++) {
      if (tries > 500) throw new Error(`process ${pid} did not become a zombie`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return pid;
  }

  it('takes a live process for alive, and a pid that is not there for dead', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    const ended = spawnSync('true').pid!;
    expect(isProcessAlive(ended)).toBe(false);
  });

  it('takes a zombie (killed, never reaped) for dead, though signal 0 still finds it: from /proc, and from ps as on macOS', async () => {
    const pid = await zombie();
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(isProcessAlive(pid, 'linux')).toBe(false);
    expect(isProcessAlive(pid, 'darwin')).toBe(false);
    // Where the state cannot be read, signal 0 is all there is: the silent heartbeat frees such a run.
    expect(isProcessAlive(pid, 'win32')).toBe(true);
  });
});

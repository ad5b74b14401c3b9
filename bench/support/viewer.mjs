// What the viewer's benches share: `pmiyc view` started on a store, a timed request of its JSON API, a process's peak RSS.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Starts the built `pmiyc view --no-open` on a store; resolves with the process and its address once it listens. */
export async function startViewer(storePath) {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'view', '--store', storePath, '--port', '0', '--no-open'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(text);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`pmiyc view exited with ${code}`)));
  });
  return { child, url };
}

/** A GET of the JSON API: its time (ms) and body; throws on an error status. */
export async function timed(url) {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

/** A live process's peak resident memory (VmHWM), in MB (Linux). */
export const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

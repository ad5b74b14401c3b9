import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

// What a user sees when a server sends a 100 MB reply in the middle of a run, through pmiyc's own
// client (alpha, OpenAI-compatible) and through the AI SDK (beta, Anthropic's API): that call fails
// with the limit and the config field named, is not retried, and the rest of the run goes on.

const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];
const HUGE_BYTES = 100 * 2 ** 20;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-limits-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

/** A server for both APIs: a tagged reply derived from the request, or, for a HUGE claim while `huge` is on, 100 MB of JSON that never ends well. */
async function startServer() {
  const state = { huge: true, hugeRequests: [] as string[], hugeBytesWritten: [] as number[] };
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    if (state.huge && text.includes('HUGE')) {
      state.hugeRequests.push(text);
      return void streamHuge(response, state.hugeBytesWritten);
    }
    const digest = createHash('sha256').update(text).digest();
    const reply = `<message>Reply ${digest.toString('hex').slice(0, 8)}.</message>\n<support_ranking>${LABELS[digest[0]! % LABELS.length]}</support_ranking>`;
    const shape = request.url?.endsWith('/messages') ? RESPONSE_SHAPES.anthropicMessage(reply) : RESPONSE_SHAPES.openaiChat(reply);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shape));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close };
}

/** 100 MB of a JSON string, chunked (no Content-Length says the size first), as fast as the client reads, until it hangs up. */
async function streamHuge(response: ServerResponse, written: number[]): Promise<void> {
  const index = written.push(0) - 1;
  const piece = Buffer.alloc(2 ** 20, 'x');
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"choices":[{"message":{"content":"');
  while (!response.destroyed && written[index]! < HUGE_BYTES) {
    written[index]! += piece.length;
    if (!response.write(piece)) await drainedOrClosed(response);
  }
  if (!response.destroyed) response.end('"}}]}');
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}

function writeConfig(url: string): string {
  const path = `${fresh('config')}.yaml`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${url}/v1", maxRetries: 3 }
  beta: { provider: anthropic, model: claude-test, baseURL: "${url}/v1", maxRetries: 3, maxReplyBytes: 2097152 }
`,
  );
  return path;
}

const exportOf = async (store: string) =>
  (await runCli(['export', '--store', store, '--format', 'jsonl'])).stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a 100 MB reply in a run', () => {
  it('fails the calls that get it with the limit and its config field named, not retried nor asked twice; the other conversations finish; a resume asks again', async () => {
    const server = await startServer();
    try {
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 2, [JSON.stringify({ claim: 'A HUGE claim' })]);
      const env = { ANTHROPIC_API_KEY: 'test-key' };
      const args = ['run', '--config', writeConfig(server.url), '--models', 'alpha,beta', '--claims', claims, '--store', store, '--setting', 'single'];
      const first = await runCli(args, { env });

      // Failed conversations make the run's exit code 1, as any failed call does; nothing crashed.
      expect(first.code).toBe(1);
      expect(first.stderr).not.toMatch(/ERR_STRING_TOO_LONG|heap|\n\s+at /);
      expect(first.stderr).toMatch(/pmiyc: \d+ conversations failed \(api: \d+\)/);
      const records = await exportOf(store);
      const huge = records.filter((record) => String(record['claim']).includes('HUGE'));
      const others = records.filter((record) => !String(record['claim']).includes('HUGE'));
      expect(huge.length).toBeGreaterThan(0);
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((record) => record['status'] === 'completed')).toBe(true);
      expect(huge.every((record) => record['status'] === 'failed' && record['failureReason'] === 'api')).toBe(true);
      const details = new Set(huge.map((record) => String(record['failureDetail'])));
      const expected = [
        "alpha: the server sent a reply larger than 8 MiB, this model's maxReplyBytes; not retried: raise maxReplyBytes for alpha in the config to read larger replies",
        "beta: the server sent a reply larger than 2 MiB, this model's maxReplyBytes; not retried: raise maxReplyBytes for beta in the config to read larger replies",
      ];
      // Both paths met the reply: alpha's and beta's first calls on the HUGE claim.
      expect([...details].sort()).toEqual(expected);

      // Each request that got the huge reply was sent once: no retry, and no second try by a conversation sharing it.
      expect(new Set(server.state.hugeRequests).size).toBe(server.state.hugeRequests.length);
      expect(server.state.hugeRequests.length).toBeLessThan(huge.length);
      // pmiyc stopped reading at its limit: far less than 100 MB was sent.
      for (const bytes of server.state.hugeBytesWritten) expect(bytes).toBeLessThan(40 * 2 ** 20);

      // The server is fixed: --retry-failed asks those calls once more, and the run completes.
      server.state.huge = false;
      const retried = await runCli(['run', '--store', store, '--retry-failed'], { env });
      expect(retried.code).toBe(0);
      expect((await exportOf(store)).every((record) => record['status'] === 'completed')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

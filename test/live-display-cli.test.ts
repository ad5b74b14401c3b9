import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, spawnCli } from './cli-helpers.js';
import { isFirstArgument, isOpening, startFakeChatServer } from './support/fake-chat-server.js';
import { type FakeProviderServer, type FakeResponse, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { hasScript, runInPseudoTerminal } from './support/pseudo-terminal.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-live-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

const RATE_LIMITED = 3;
const MALFORMED = 2;

/**
 * A server with faults: the 2nd, 5th and 9th requests get a 429 (each retried once), and the first
 * two turns of a conversation's own (not an opening or a first argument, which other conversations
 * share) get a reply without tags (each asked again once).
 */
async function faultyServer(): Promise<FakeProviderServer> {
  let malformed = 0;
  return startFakeChatServer({
    respond: (request, index): FakeResponse | undefined => {
      if ([1, 4, 8].includes(index)) {
        return { status: 429, headers: { 'retry-after-ms': '10' }, body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded') };
      }
      if (malformed < MALFORMED && index > 8 && !isOpening(request) && !isFirstArgument(request)) {
        malformed += 1;
        return { status: 200, body: RESPONSE_SHAPES.openaiChat('I would rather not use the tags.') };
      }
      return undefined;
    },
  });
}

/** alpha with prices, beta without: the spend says so. Three retries, as the faults need one each. */
function writeConfig(server: FakeProviderServer): string {
  const path = `${fresh('config')}.yaml`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 3, inputUsdPerMillion: 1, outputUsdPerMillion: 2 }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${server.url}/v1", maxRetries: 3 }
`,
  );
  return path;
}

/** `pmiyc run` of `models` on `claims` claims in a fresh store (alpha and beta of the faulty server's config unless given). */
const runArgs = (config: string, { models = 'alpha,beta', claims = 2, concurrency = 4 } = {}) => [
  'run',
  '--config',
  config,
  '--models',
  models,
  '--claims',
  writeClaims(`${fresh('claims')}.jsonl`, claims),
  '--store',
  `${fresh('store')}.db`,
  '--concurrency',
  String(concurrency),
];

/** The block's rows: the items line, the calls line, one row per model. */
const isBlockRow = (line: string) => /^\d+\/\d+ conversations \(|^calls \d|^ {2}(alpha|beta): \d+ on the wire/.test(line);
const spendOf = (line: string) => /\$\d+\.\d{4}( \(no price for [^)]*\))?/.exec(line)?.[0];
/** The whole run's cost in the closing lines, in the progress line's words: "$0.0210 (no price for beta)". */
function closingSpendOf(text: string): string | undefined {
  const cost = /^cost of the calls made\s+\S+\s+(\$\d+\.\d{4})$/m.exec(text)?.[1];
  const unpriced = /^The cost leaves out (.*): no price set\.$/m.exec(text)?.[1];
  return cost && unpriced ? `${cost} (no price for ${unpriced})` : cost;
}

describe.skipIf(!hasScript)('pmiyc run in a pseudo-terminal (util-linux script) against a server with faults', () => {
  it('prints warnings above the block, counts the retries (not a line each) and re-samples, leaves one clean block, and its spend is the final figure', async () => {
    const server = await faultyServer();
    try {
      const { code, output, lines } = await runInPseudoTerminal(CLI, runArgs(writeConfig(server)));
      expect(code, output).toBe(0);
      const blockStart = lines.findIndex(isBlockRow);
      const block = lines.slice(blockStart, blockStart + 4);
      // One block, whole, in one place: no row of an earlier drawing is left anywhere.
      expect(block.every(isBlockRow), lines.join('\n')).toBe(true);
      expect(lines.filter(isBlockRow)).toHaveLength(4);
      // Above it, only the warnings, every one of them, in the order they came.
      const above = lines.slice(0, blockStart);
      expect(
        above.every((line) => line.startsWith('pmiyc: ')),
        above.join('\n'),
      ).toBe(true);
      // Retries are counted in the block, with their last error, not printed one by one.
      expect(above.filter((line) => line.includes('retrying in'))).toEqual([]);

      const retries = (model: string) =>
        Number(new RegExp(`^ {2}${model}: .* (\\d+) retr(y|ies),`).exec(block.find((line) => line.startsWith(`  ${model}:`))!)![1]);
      const resamples = (model: string) =>
        Number(new RegExp(`^ {2}${model}: .* (\\d+) re-samples?`).exec(block.find((line) => line.startsWith(`  ${model}:`))!)![1]);
      expect(retries('alpha') + retries('beta')).toBe(RATE_LIMITED);
      expect(resamples('alpha') + resamples('beta')).toBe(MALFORMED);
      expect(block[0]).toMatch(/^16\/16 conversations \(0 failed\) · .* · ETA done$/);
      expect(block.slice(2).every((line) => / 0 on the wire( \(limit \d+\))?, 0 waiting · /.test(line))).toBe(true);
      expect(block.some((line) => / last error HTTP 429 [\d.]+ m?s ago/.test(line))).toBe(true);

      const live = spendOf(block[1]!);
      const final = closingSpendOf(lines.join('\n'));
      expect(live).toMatch(/^\$0\.\d{4} \(no price for beta\)$/);
      expect(final).toBe(live);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!hasScript)('pmiyc run in a pseudo-terminal 80 columns wide', () => {
  it('keeps the spend and the last errors in every row of the block, each cut to the screen, other fields dropped first', async () => {
    const server = await faultyServer();
    try {
      const { code, output, lines } = await runInPseudoTerminal(CLI, runArgs(writeConfig(server)), 80);
      expect(code, output).toBe(0);
      const block = lines.filter(isBlockRow);
      expect(block, lines.join('\n')).toHaveLength(4);
      for (const line of block) expect(line.length).toBeLessThan(80);
      expect(spendOf(block[1]!)).toMatch(/^\$0\.\d{4} \(no price for beta\)$/);
      expect(block[1]).not.toContain('tokens');
      expect(block.some((line) => / last error HTTP 429 [\d.]+ m?s ago/.test(line))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

/** A provider on loopback that holds every call until the test answers it (its list of models, which a run asks first, it gives at once). */
async function holdingServer() {
  const held: Array<(response: unknown) => void> = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response: ServerResponse) => {
    if (request.method === 'GET') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    request.resume();
    request.on('end', () => held.push((body) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits until `condition` holds; after a minute fails with what the run wrote (not a timing assertion: a guard against hanging). */
async function waitFor(condition: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never came; the run wrote:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('pmiyc run stopped by Ctrl-C while calls are out', () => {
  it('shows the calls left to drain instead of an ETA, down to none', async () => {
    const server = await holdingServer();
    try {
      const config = `${fresh('config')}.yaml`;
      writeFileSync(config, `models:\n  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 0 }\n`);
      const running = spawnCli(runArgs(config, { models: 'alpha', claims: 3, concurrency: 3 }), { env: { PMIYC_PROGRESS_INTERVAL_MS: '20' } });
      const stderr = () => running.output().stderr;
      try {
        await waitFor(() => server.held.length === 3, stderr);
        await waitFor(() => / · ETA /.test(stderr()), stderr);
        running.child.kill('SIGINT');
        await waitFor(() => stderr().includes('stopping (Ctrl-C): 3 calls left to drain'), stderr);
        const reply = RESPONSE_SHAPES.openaiChat('<message>Fine.</message>\n<support_ranking>Neutral</support_ranking>');
        server.held.shift()!(reply);
        await waitFor(() => stderr().includes('stopping (Ctrl-C): 2 calls left to drain'), stderr);
        for (const answer of server.held.splice(0)) answer(reply);
      } catch (error) {
        running.child.kill('SIGKILL');
        throw error;
      }
      const stopped = await running.done;
      expect(stopped.code).toBe(130);
      const progress = stopped.stderr.split('\n').filter((line) => /^pmiyc: \d+\/\d+ conversations/.test(line));
      const afterSignal = progress.slice(progress.findIndex((line) => line.includes('stopping (Ctrl-C)')));
      // No ETA once the signal came, and the last line says the run stopped.
      expect(
        afterSignal.every((line) => !line.includes('ETA')),
        afterSignal.join('\n'),
      ).toBe(true);
      expect(afterSignal.at(-1)).toMatch(/ · stopped \(Ctrl-C\); calls /);
    } finally {
      await server.close();
    }
  });
});

describe('pmiyc run without a terminal', () => {
  it('ends its progress log with the spend the outcome prints, saying which models have no price', async () => {
    const server = await startFakeChatServer();
    try {
      const result = await runCli(runArgs(writeConfig(server)), { env: { PMIYC_PROGRESS_INTERVAL_MS: '60000' } });
      expect(result.code, result.stderr).toBe(0);
      const progress = result.stderr.trimEnd().split('\n').at(-1)!;
      expect(progress).toMatch(/^pmiyc: 16\/16 conversations .* ETA done; calls .*; retries 0, re-samples 0$/);
      expect(spendOf(progress)).toMatch(/^\$0\.\d{4} \(no price for beta\)$/);
      expect(closingSpendOf(result.stdout)).toBe(spendOf(progress));
    } finally {
      await server.close();
    }
  });
});

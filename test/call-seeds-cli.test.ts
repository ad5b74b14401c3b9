import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { isOpening, startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

/** What the tests read of an exported conversation. */
interface Exported {
  conversationId: string;
  claimIndex: number;
  persuader: string;
  persuadee: string;
  repetition: number;
  persuaderStance: number | null;
  initialScore: number | null;
  finalScore: number | null;
  turns: Array<{ index: number; attempts: Array<{ seed: number }> }>;
}

let folder: string;
let server: FakeProviderServer;
const pathOf = pathMaker(() => folder);
const CLAIMS = 6;

/** alpha and beta on the loopback server, and `x`, a variant that only changes the persuader's system prompt. */
function writeConfig(): string {
  const path = `${pathOf('pmiyc')}.yaml`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${server.url}/v1", maxRetries: 0 }
variants:
  x:
    persuader:
      system: |
        VARIANT-X: argue for {{subject}} with care.
        Claim: "{{claim}}"
        {{format}}
`,
  );
  return path;
}

async function run(args: readonly string[]): Promise<{ records: Exported[]; requests: RecordedRequest[]; stdout: string; stderr: string }> {
  const before = server.requests.length;
  const store = `${pathOf('store')}.db`;
  const result = await runCli(['run', '--store', store, '--claims', writeClaims(join(folder, 'claims.jsonl'), CLAIMS), '--setting', 'single', ...args]);
  expect(result.code, result.stderr).toBe(0);
  const requests = server.requests.slice(before);
  const exported = await runCli(['export', '--store', store, '--format', 'jsonl']);
  const records = exported.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Exported);
  return { records, requests, stdout: result.stdout, stderr: result.stderr };
}

const stanceByClaim = (records: readonly Exported[], persuader: string) =>
  new Map(records.filter((record) => record.persuader === persuader).map((record) => [record.claimIndex, record.persuaderStance]));

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-call-seeds-'));
  server = await startFakeChatServer();
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('seeds from what a request is', () => {
  it("a persuader-only variant shares its model's openings and stance: asked once, never again", async () => {
    const config = writeConfig();
    const { records, requests } = await run(['--config', config, '--models', 'alpha,beta', '--persuader-variants', 'default,x']);
    expect(records).toHaveLength(4 * 2 * CLAIMS);
    // One opening per persuadee model and claim: alpha+x and beta+x ask none of their own for their stance.
    expect(requests.filter(isOpening)).toHaveLength(2 * CLAIMS);
    for (const model of ['alpha', 'beta']) {
      const plain = stanceByClaim(records, model);
      const variant = stanceByClaim(records, `${model}+x`);
      expect(plain.size).toBe(CLAIMS);
      expect([...plain.values()].every((stance) => stance !== null)).toBe(true);
      expect(variant).toEqual(plain);
    }
    // The variant's own arguments are asked: it is a persuader of its own.
    expect(requests.some((request) => JSON.stringify(request.body).includes('VARIANT-X'))).toBe(true);
  });

  it('the same agent as a persuadee asks exactly what its model asks: the whole conversation is shared', async () => {
    const config = writeConfig();
    const plain = await run(['--config', config, '--persuaders', 'beta', '--persuadees', 'alpha']);
    const both = await run(['--config', config, '--persuaders', 'beta', '--persuadees', 'alpha,alpha+x']);
    // A fresh store each: the run with alpha+x asks no more than the run without it.
    expect(both.requests).toHaveLength(plain.requests.length);
    const scores = (records: readonly Exported[], persuadee: string) =>
      records
        .filter((record) => record.persuadee === persuadee)
        .map(({ claimIndex, initialScore, finalScore, persuaderStance }) => ({ claimIndex, initialScore, finalScore, persuaderStance }))
        .sort((a, b) => a.claimIndex - b.claimIndex);
    expect(scores(both.records, 'alpha+x')).toEqual(scores(plain.records, 'alpha'));
    // Said before the run starts, so that no one reads alpha+x as a second persuadee.
    expect(both.stderr).toContain('pmiyc: alpha+x as a persuadee is asked exactly what alpha is asked (variant x replaces no persuadee prompt)');
    expect(plain.stderr).not.toContain('is asked exactly what');
  });
});

describe('independent repetitions', () => {
  it('repetition 1 asks openings and stances of its own; repetition 0 is the run without --repeat', async () => {
    const config = writeConfig();
    const once = await run(['--config', config, '--models', 'alpha,beta']);
    const twice = await run(['--config', config, '--models', 'alpha,beta', '--repeat', '2']);
    // Openings: one per persuadee, claim and repetition, each its own request (a fresh store each).
    expect(once.requests.filter(isOpening)).toHaveLength(2 * CLAIMS);
    expect(twice.requests.filter(isOpening)).toHaveLength(2 * 2 * CLAIMS);
    const openingSeeds = (records: readonly Exported[], repetition: number) =>
      new Set(records.filter((record) => record.repetition === repetition).map((record) => record.turns[0]!.attempts[0]!.seed));
    const [first, second] = [openingSeeds(twice.records, 0), openingSeeds(twice.records, 1)];
    expect(second.size).toBe(2 * CLAIMS);
    expect([...second].some((seed) => first.has(seed))).toBe(false);
    // Repetition 0 is, conversation for conversation, the run without --repeat.
    const byId = (records: readonly Exported[]) =>
      records.map(({ conversationId, initialScore, finalScore, persuaderStance, turns }) => ({
        conversationId,
        initialScore,
        finalScore,
        persuaderStance,
        turns: turns.length,
      }));
    expect(byId(twice.records.filter((record) => record.repetition === 0)).sort((a, b) => a.conversationId.localeCompare(b.conversationId))).toEqual(
      byId(once.records).sort((a, b) => a.conversationId.localeCompare(b.conversationId)),
    );
  });
});

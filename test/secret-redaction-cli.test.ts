import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, FakeResponse, RecordedRequest } from './support/fake-provider-server.js';
import { writeClaims } from './support/run-fixtures.js';

/*
 * A gateway that repeats in its error replies the credentials it was sent (the Authorization or
 * x-api-key header, and a header of the config's) and sends escape sequences that would set the
 * terminal's title, clear its screen and write its clipboard. Neither may reach a terminal, the store,
 * an export or a report.
 */
const KEY = 'sk-proj-7Hq2Xv9LmN4pR8sT1wY6zK3b';
const GATEWAY_SECRET = 'gw-secret-A1B2C3D4E5F6';
const ESC = '\u001b';
const ESCAPES = `${ESC}]0;pwned${'\u0007'}${ESC}[2J${ESC}]52;c;aGVsbG8=${'\u0007'}`;

const echo = (request: RecordedRequest) =>
  `upstream failed for ${String(request.headers['authorization'] ?? request.headers['x-api-key'])} (${String(request.headers['x-gateway'])}) ${ESCAPES}`;

const asked = new Map<string, number>();

/**
 * alpha (pmiyc's own client) and beta (the AI SDK) get, each in turn, a 503 (retried), a 422 and a 400
 * with a text body; gamma is answered. A list of models (the check before a run, when the server is
 * asked for it: `listsModels` false) is refused with a 401 that repeats the credentials too.
 */
function gatewayReply(request: RecordedRequest): FakeResponse | undefined {
  if (request.method === 'GET') return { status: 401, body: { error: { message: echo(request), type: 'invalid_request_error' } } };
  const model = String(request.body['model']);
  if (model === 'gamma-model') return undefined;
  const index = asked.get(model) ?? 0;
  asked.set(model, index + 1);
  if (index % 3 === 0) return { status: 503, headers: { 'retry-after-ms': '1' }, body: { error: { message: echo(request) } } };
  if (index % 3 === 1) return { status: 422, body: { error: { message: echo(request), type: 'invalid_request_error' } } };
  return { status: 400, raw: echo(request), headers: { 'content-type': 'text/plain' } };
}

let folder: string;
let server: FakeProviderServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-secrets-'));
  server = await startFakeChatServer({ respond: gatewayReply });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function writeConfig(): string {
  const path = join(folder, 'config.yaml');
  const common = `apiKeyEnv: PMIYC_TEST_SECRET_KEY, headers: { x-gateway: "${GATEWAY_SECRET}" }, maxRetries: 2`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", ${common} }
  beta: { provider: anthropic, model: beta-model, baseURL: "${server.url}/v1", ${common} }
  gamma: { provider: openai-compatible, model: gamma-model, baseURL: "${server.url}/v1", ${common} }
`,
  );
  return path;
}

const env = { PMIYC_TEST_SECRET_KEY: KEY };

/** Every file under `path` (a report's folder), read as bytes. */
function filesUnder(path: string): Array<{ path: string; bytes: Buffer }> {
  if (!statSync(path).isDirectory()) return [{ path, bytes: readFileSync(path) }];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

function expectNoSecret(where: string, bytes: Buffer | string): void {
  const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') : bytes;
  expect(text.includes(KEY), `${where} holds the API key`).toBe(false);
  expect(text.includes(GATEWAY_SECRET), `${where} holds the header's value`).toBe(false);
}

function expectCleanOutput(command: string, result: CliResult): void {
  for (const [stream, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const) {
    expectNoSecret(`${command}'s ${stream}`, text);
    expect(text.includes(ESC), `${command}'s ${stream} holds an ESC byte`).toBe(false);
    expect(text.includes('pwned'), `${command}'s ${stream} holds the escape's title`).toBe(false);
  }
}

describe('a server that repeats the credentials and sends escape sequences in its errors', () => {
  it('has neither reach the terminal, the store, an export, a report or models --check', async () => {
    const config = writeConfig();
    const claims = writeClaims(join(folder, 'claims.jsonl'), 1);
    const store = join(folder, 'store.db');
    const outputs: Array<[string, CliResult]> = [];

    const run = await runCli(['run', '--config', config, '--models', 'alpha,beta,gamma', '--claims', claims, '--store', store, '--run', 'r'], { env });
    outputs.push(['run', run]);
    expect(run.code).toBe(1);
    // The server's words do arrive (so the test would see the key if it were there), redacted.
    expect(run.stderr).toContain('upstream failed for Bearer [redacted: PMIYC_TEST_SECRET_KEY] ([redacted: header x-gateway])');

    // The check before a run, refused by the same gateway: each model's line repeats what it said, redacted.
    server.listsModels = false;
    const refused = await runCli(['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store, '--run', 'refused'], { env });
    server.listsModels = true;
    outputs.push(['run refused by the check', refused]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pmiyc: alpha: HTTP 401: upstream failed for Bearer [redacted: PMIYC_TEST_SECRET_KEY] ([redacted: header x-gateway])');
    expect(refused.stderr).toContain('pmiyc: beta: HTTP 401: upstream failed for [redacted: PMIYC_TEST_SECRET_KEY] ([redacted: header x-gateway])');

    const jsonl = await runCli(['export', '--store', store, '--run', 'r', '--format', 'jsonl']);
    outputs.push(['export --format jsonl', jsonl]);
    const records = jsonl.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { conversationId: string; status: string; persuadee: string; failureDetail?: string });
    const failedAlpha = records.find((record) => record.status === 'failed' && record.persuadee === 'alpha')!;
    const failedBeta = records.find((record) => record.status === 'failed' && record.persuadee === 'beta')!;
    expect(failedAlpha.failureDetail).toMatch(/^alpha: HTTP (503|422|400): upstream failed for /);
    expect(records.some((record) => record.status === 'completed')).toBe(true);

    outputs.push(['export --format csv', await runCli(['export', '--store', store, '--run', 'r', '--format', 'csv'])]);
    for (const record of [failedAlpha, failedBeta]) {
      const shown = await runCli(['show', record.conversationId, '--store', store]);
      expect(shown.stdout).toContain('Failed at turn');
      outputs.push([`show ${record.persuadee}`, shown]);
      outputs.push([`show --json ${record.persuadee}`, await runCli(['show', record.conversationId, '--store', store, '--json'])]);
    }
    outputs.push(['runs', await runCli(['runs', '--store', store])]);
    const reportFolder = join(folder, 'report');
    const report = await runCli(['report', '--store', store, '--run', 'r', '--out', reportFolder, '--replicates', '200']);
    expect(report.code).toBe(0);
    outputs.push(['report', report]);
    const check = await runCli(['models', '--config', config, '--check'], { env });
    expect(check.stdout).toMatch(/^alpha\s+FAILED \(api\)\s+alpha: HTTP \d+: /m);
    outputs.push(['models --check', check]);

    for (const [command, result] of outputs) expectCleanOutput(command, result);
    for (const file of filesUnder(reportFolder)) expectNoSecret(file.path, file.bytes);
    // The store's file and, had the last process left them, its write-ahead log and index, byte by byte.
    for (const path of [store, `${store}-wal`, `${store}-shm`].filter((candidate) => existsSync(candidate))) expectNoSecret(path, readFileSync(path));
    const storeText = readFileSync(store).toString('latin1');
    expect(storeText).toContain('[redacted: PMIYC_TEST_SECRET_KEY]');
    // A database file holds 0x1b bytes of its own; the escapes' payloads tell whether theirs were stored.
    expect(storeText).not.toContain('pwned');
    expect(storeText).not.toContain('aGVsbG8=');
  });
});

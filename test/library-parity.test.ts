import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, parseClaimsFile, parseConfig, processSessionWorld, quietSignals, runTournament } from '../src/index.js';
import { runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-parity-'));
  server = await startFakeChatServer();
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});
const fresh = pathMaker(() => folder);

const bodies = (requests: readonly RecordedRequest[]) => requests.map((request) => JSON.stringify(request.body)).sort();
const exportOf = async (store: string) => {
  const result = await runCli(['export', '--store', store, '--run', 'parity', '--format', 'jsonl']);
  expect(result.code).toBe(0);
  return result.stdout;
};

describe('the library runs what the CLI runs', () => {
  it('runTournament and pmiyc run on the same design make the same requests and store the same conversations', async () => {
    const claimsPath = writeClaims(`${fresh('claims')}.jsonl`, 3);
    // One server and one config for both: the same models, served the same way (the call identity includes the endpoint).
    const configPath = writeChatConfig(`${fresh('models')}.yaml`, server.url, ', inputUsdPerMillion: 1, outputUsdPerMillion: 2');
    const cliStore = `${fresh('cli')}.db`;
    const cli = await runCli(['run', '--config', configPath, '--models', 'alpha,beta', '--claims', claimsPath, '--store', cliStore, '--run', 'parity']);
    expect(cli.code).toBe(0);
    const cliRequests = [...server.requests];
    server.requests.length = 0;

    const libraryStore = `${fresh('library')}.db`;
    const store = openStore(libraryStore);
    const messages = new PassThrough();
    try {
      const outcome = await runTournament({
        store,
        models: ['alpha', 'beta'],
        claims: parseClaimsFile(claimsPath, readFileSync(claimsPath, 'utf8')).claims,
        config: parseConfig(configPath, readFileSync(configPath, 'utf8')),
        name: 'parity',
        world: processSessionWorld({ env: {}, messages, signals: quietSignals(), progress: false }),
      });
      expect(outcome.ending).toEqual({ status: 'completed', exitCode: 0 });
      expect(outcome.meter.callsMade).toBe(cliRequests.length);
    } finally {
      store.close();
    }

    expect(server.requests.length).toBe(cliRequests.length);
    expect(bodies(server.requests)).toEqual(bodies(cliRequests));
    expect(await exportOf(libraryStore)).toBe(await exportOf(cliStore));
    const runs = (path: string) => runCli(['runs', '--store', path]).then((result) => result.stdout.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, 'T'));
    expect(await runs(libraryStore)).toBe(await runs(cliStore));
  });
});

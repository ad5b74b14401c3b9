import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisDesignFromOptions, BUILT_IN_TAXONOMIES, openStore, parseConfig, processSessionWorld, quietSignals, runAnalysisStudy } from '../src/index.js';
import { readConversationJudgeRequest } from '../src/protocol/conversation-judge-prompt.js';
import { readTurnJudgeRequest } from '../src/protocol/turn-judge-prompt.js';
import { runCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';

let folder: string;
let server: FakeProviderServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-parity-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    const user = (request.body['messages'] as Array<{ role: string; content: string }>).find((message) => message.role === 'user')?.content ?? '';
    const answerOf = (role: string | undefined) =>
      role === 'persuader' ? { techniques: ['logos'], unethical: [], refused: false, leftRole: false } : { leftRole: false };
    const whole = readConversationJudgeRequest(user);
    const text = JSON.stringify(
      whole ? Object.fromEntries(whole.turns.map((turn) => [String(turn.index), answerOf(turn.role)])) : answerOf(readTurnJudgeRequest(user)?.turn.role),
    );
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(text) };
  });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const bodies = (requests: readonly RecordedRequest[]) => requests.map((request) => JSON.stringify(request.body)).sort();

describe('the library analyses what the CLI analyses', () => {
  it.each(['conversation', 'turn'] as const)(
    'runAnalysisStudy and pmiyc analyze on the same design (--grain %s) make the same requests and store the same labels',
    async (grain) => {
      const store = join(folder, `store-${grain}.db`);
      const configPath = join(folder, `models-${grain}.yaml`);
      writeFileSync(configPath, `models:\n  judge: { provider: openai-compatible, model: judge-model, baseURL: "${server.url}/v1", maxRetries: 0 }\n`);
      expect((await runCli(['run', '--models', 'sim/eloquent,sim/weak', '--limit', '2', '--setting', 'single', '--store', store])).code).toBe(0);
      server.requests.length = 0;
      const cli = await runCli(['analyze', '--config', configPath, '--judge', 'judge', '--grain', grain, '--study', 'cli', '--store', store]);
      expect(cli.code, cli.stderr).toBe(0);
      const cliRequests = [...server.requests];
      server.requests.length = 0;

      const opened = openStore(store);
      try {
        const design = analysisDesignFromOptions(
          { judge: ['judge'], temperature: 0, maxTokens: 400, maxAttempts: 3, grain },
          BUILT_IN_TAXONOMIES.rhetoric!,
          'rhetoric',
        );
        const outcome = await runAnalysisStudy({
          store: opened,
          design,
          tournamentRun: opened.findRun('run-1'),
          config: parseConfig(configPath, readFileSync(configPath, 'utf8')),
          seed: 0,
          concurrency: 16,
          // Asked afresh rather than replayed from the CLI's study.
          cache: false,
          name: 'library',
          about: { packageVersion: 'library' },
          world: processSessionWorld({ env: {}, messages: new PassThrough(), signals: quietSignals(), progress: false }),
        });
        expect(outcome.ending).toEqual({ status: 'completed', exitCode: 0 });
        expect(bodies(server.requests)).toEqual(bodies(cliRequests));
        const labels = (study: string) => [...opened.analysis.labels(opened.findRun(study).id)].map(({ callHash: _hash, ...label }) => label);
        expect(labels('library')).toEqual(labels('cli'));
        expect(labels('cli').length).toBeGreaterThan(0);
      } finally {
        opened.close();
      }
    },
    120_000,
  );
});

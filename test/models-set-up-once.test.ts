import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analysisDesignFromOptions,
  BUILT_IN_TAXONOMIES,
  openStore,
  type PmiycConfig,
  parseClaimsFile,
  parseConfig,
  processSessionWorld,
  quietSignals,
  runAnalysisStudy,
  runTournament,
  type Store,
} from '../src/index.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { pathMaker, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-set-up-once-'));
  server = await startFakeChatServer();
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});
const fresh = pathMaker(() => folder);

/** A config whose table of models counts how often each alias is looked up: once per model is a session set up once. */
function countingConfig(configPath: string): { config: PmiycConfig; lookups: Map<string, number> } {
  const parsed = parseConfig(configPath, readFileSync(configPath, 'utf8'));
  const lookups = new Map<string, number>();
  const models = new Proxy(parsed.models, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) lookups.set(key, (lookups.get(key) ?? 0) + 1);
      return Reflect.get(target, key, receiver);
    },
  });
  return { config: { ...parsed, models }, lookups };
}

const world = () => processSessionWorld({ env: {}, messages: new PassThrough(), signals: quietSignals(), progress: false });

/** A tournament of alpha under two names (alpha, alpha+emotional) against beta on two claims, single-turn. */
function runTwoNamedAlpha(store: Store, config: PmiycConfig, name: string) {
  const claimsPath = writeClaims(`${fresh('claims')}.jsonl`, 2);
  return runTournament({
    store,
    persuaders: ['alpha', 'alpha+emotional'],
    persuadees: ['beta'],
    variants: { emotional: { persuader: { system: 'Argue for {{claim}} with feeling. {{format}}' } } },
    setting: 'single',
    claims: parseClaimsFile(claimsPath, readFileSync(claimsPath, 'utf8')).claims,
    config,
    name,
    world: world(),
  });
}

describe("a run's agents resolved once and its models set up once", () => {
  it('a tournament with a model under two names (alpha, alpha+emotional) looks each model up once and checks it once', async () => {
    const { config, lookups } = countingConfig(writeChatConfig(`${fresh('models')}.yaml`, server.url));
    const store = openStore(`${fresh('store')}.db`);
    server.modelListings = 0;
    try {
      const outcome = await runTwoNamedAlpha(store, config, 'once');
      expect(outcome.ending).toEqual({ status: 'completed', exitCode: 0 });
      expect(outcome.meter.conversationsDone).toBe(4);
    } finally {
      store.close();
    }
    // One check that each model answers (its server's list of models), not one per agent name.
    expect(server.modelListings).toBe(2);
    expect(Object.fromEntries(lookups)).toEqual({ alpha: 1, beta: 1 });
  });

  it("an analysis study with --probe-drift looks its judge and the persuaders' model up once each", async () => {
    const configPath = writeChatConfig(`${fresh('models')}.yaml`, server.url);
    const store = openStore(`${fresh('store')}.db`);
    try {
      const tournament = await runTwoNamedAlpha(store, parseConfig(configPath, readFileSync(configPath, 'utf8')), 'source');
      expect(tournament.ending.status).toBe('completed');
      const { config, lookups } = countingConfig(configPath);
      server.modelListings = 0;
      const outcome = await runAnalysisStudy({
        store,
        design: analysisDesignFromOptions(
          { judge: ['beta'], temperature: 0, maxTokens: 200, maxAttempts: 1, probeDrift: true },
          BUILT_IN_TAXONOMIES.rhetoric!,
          'rhetoric',
        ),
        tournamentRun: store.findRun('source'),
        config,
        seed: 0,
        concurrency: 4,
        cache: true,
        name: 'study',
        about: { packageVersion: 'library' },
        world: world(),
      });
      // Every conversation's persuader was asked the drift probe (alpha's model, under both its names).
      expect([...store.analysis.probes(outcome.run.id)].map((probe) => probe.model).sort()).toEqual(['alpha', 'alpha', 'alpha+emotional', 'alpha+emotional']);
      expect(server.modelListings).toBe(2);
      expect(Object.fromEntries(lookups)).toEqual({ alpha: 1, beta: 1 });
    } finally {
      store.close();
    }
  });
});

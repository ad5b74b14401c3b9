import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPersusafetyLabelRecord } from '../src/protocols/persusafety/agreement/persusafety-analysis.js';
import { isPersusafetyJudgeSystemPrompt } from '../src/protocols/persusafety/conversation/persusafety-judge.js';
import { PERSUSAFETY_STRATEGIES } from '../src/protocols/persusafety/persusafety-facts.js';
import { readPersusafetyRecord } from '../src/protocols/persusafety/persusafety-record.js';
import { openStore } from '../src/store/result-store.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import { ordinalAlphaByDefinition } from './support/ordinal-alpha.js';
import { persusafetyLoopbackAnswer, persusafetyMessagesOf, writePersusafetyDataset, writePersusafetyModelsConfig } from './support/persusafety-loopback.js';
import { describeWithTestData } from './support/test-data.js';

/**
 * `pmiyc analyze --run <a PersuSafety run> --judge MODEL`: another judge scores the run's conversations again, and
 * the agreement between the two judges (Krippendorff's alpha per strategy) is in the closing text and the run's
 * report. Against simulated judges planted with an error rate, alpha falls as the error rises and equals a
 * recomputation from the stored scores; against a loopback OpenAI-compatible judge, on the imported fixture, the
 * study asks with the protocol's JSON Schema, resumes after kill -9 asking no call twice, replays every call in a
 * second study and prices its calls in a dry run.
 */

const FIXTURE_TREE = fileURLToPath(new URL('./fixtures/persusafety-results', import.meta.url));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-agreement-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface AgreementJson {
  study: string;
  firstJudge: string;
  secondJudge: string;
  metric: string;
  conversations: number;
  strategies: Array<{ strategy: string; alpha: number | null; ciLow: number | null; ciHigh: number | null; conversations: number; firstClearlyUsed: number }>;
}

/** The run's and each study's scores, read from the store by the schemas, paired by conversation as the test pairs them. */
function storedScorePairs(store: string, runName: string, studyName: string): Array<{ first: number[]; second: number[] }> {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    const study = opened.findRun(studyName);
    const second = new Map([...opened.protocolRecords.list(study.id)].map((stored) => [stored.itemKey, readPersusafetyLabelRecord(studyName, stored)]));
    return [...opened.protocolRecords.list(run.id)].flatMap((stored) => {
      const record = readPersusafetyRecord(runName, stored);
      const label = second.get(stored.itemKey);
      if (label?.status !== 'read' || record.judgement.scores.length === 0) return [];
      return [{ first: record.judgement.scores.map((score) => score.score), second: label.scores.map((score) => score.score) }];
    });
  } finally {
    opened.close();
  }
}

async function reportJson(store: string, run: string): Promise<{ agreements: AgreementJson[]; out: string }> {
  const out = join(folder, `report-${run}-${Math.random().toString(36).slice(2)}`);
  const reported = await runCli(['report', '--store', store, '--run', run, '--out', out]);
  expect(reported.code, reported.stderr).toBe(0);
  const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { protocols: Array<{ figures: { judgeAgreement?: AgreementJson[] } }> };
  return { agreements: json.protocols[0]!.figures.judgeAgreement ?? [], out };
}

describe('pmiyc analyze on a PersuSafety run played by simulated agents', () => {
  const store = () => join(folder, 'sim.db');
  const config = () => join(folder, 'sim.yaml');
  const errors = [0, 0.15, 0.5];

  beforeAll(async () => {
    const dataset = writePersusafetyDataset(folder, 2).path;
    const strategies = ['guilt-tripping', 'fear-mongering', 'false-scarcity', 'deceptive-information', 'playing-on-identity']
      .map((id) => `persusafety.strategy.${id}=0.5`)
      .join('&');
    writeFileSync(
      config(),
      `models:\n  persuader: { provider: sim, model: "persuader?${strategies}" }\n  person: { provider: sim, model: "person?persusafety.accept=0.3&persusafety.reject=0.2" }\n  judge: { provider: sim, model: judge }\n${errors.map((error) => `  judge-${error}: { provider: sim, model: "judge-${error}?labelError=${error}" }\n`).join('')}`,
    );
    const run = await runCli([
      ...['run', '--protocol', 'persusafety', '--models', 'persuader', '--persuadee', 'person', '--judge', 'judge', '--dataset', dataset],
      ...['--profiles', 'Anxious,Resilient', '--turns', '2', '--seed', '2', '--store', store(), '--config', config(), '--run', 'played'],
    ]);
    expect(run.code, run.stderr).toBe(0);
  }, 60_000);

  it("labels every conversation again with each judge, and alpha falls as a judge's planted error rises, equal to its recomputation from the stored scores", async () => {
    for (const error of errors) {
      const analysed = await runCli([
        'analyze',
        '--run',
        'played',
        '--judge',
        `judge-${error}`,
        '--study',
        `err-${error}`,
        '--store',
        store(),
        '--config',
        config(),
      ]);
      expect(analysed.code, analysed.stderr).toBe(0);
      expect(analysed.stdout).toMatch(new RegExp(`Analysis study err-${error} in .*: judge-${error} \\[simulated\\] labelled 40 conversations of run played`));
      expect(analysed.stdout).toMatch(/^all 15 strategies \(pooled\) +-?[\d.]+ /m);
    }
    const { agreements, out } = await reportJson(store(), 'played');
    expect(agreements.map((agreement) => [agreement.study, agreement.secondJudge, agreement.metric])).toEqual(
      errors.map((error) => [`err-${error}`, `judge-${error}`, 'ordinal']),
    );
    const pooled = agreements.map((agreement) => agreement.strategies.at(-1)!.alpha!);
    expect(pooled[0]).toBe(1);
    expect(pooled[1]).toBeLessThan(pooled[0]!);
    expect(pooled[2]).toBeLessThan(pooled[1]!);
    expect(pooled[2]).toBeLessThan(0.3);
    for (const agreement of agreements) {
      const pairs = storedScorePairs(store(), 'played', agreement.study);
      expect(agreement.conversations).toBe(pairs.length);
      PERSUSAFETY_STRATEGIES.forEach((strategy, index) => {
        const scores = pairs.map((pair) => [pair.first[index]!, pair.second[index]!] as const);
        const recomputed = ordinalAlphaByDefinition(scores);
        const reported = agreement.strategies[index]!;
        expect(reported.strategy).toBe(strategy);
        if (Number.isNaN(recomputed)) expect(reported.alpha, strategy).toBeNull();
        else expect(reported.alpha!, `${agreement.study}: ${strategy}`).toBeCloseTo(recomputed, 10);
        expect(reported.firstClearlyUsed).toBeCloseTo(scores.filter(([first]) => first === 2).length / pairs.length, 10);
      });
      const all = pairs.flatMap((pair) => pair.first.map((score, index) => [score, pair.second[index]!] as const));
      expect(agreement.strategies.at(-1)!.alpha!).toBeCloseTo(ordinalAlphaByDefinition(all), 10);
    }
    // The same tables in every format of the report: Markdown, HTML and one CSV per study.
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    for (const error of errors) {
      expect(markdown).toContain(`### Agreement between judge and judge-${error} (study err-${error})`);
      expect(html).toContain(`Agreement between judge and judge-${error} (study err-${error})`);
    }
    const csv = readFileSync(join(out, 'played.judge-agreement-err-0-15.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe(
      'strategy,alpha,alphaCiLow,alphaCiHigh,alphaN,alphaThin,scored2ByTheRunSJudge,scored2ByTheRunSJudgeCiLow,scored2ByTheRunSJudgeCiHigh,scored2ByTheRunSJudgeN,scored2ByTheRunSJudgeThin,scored2ByTheStudySJudge,scored2ByTheStudySJudgeCiLow,scored2ByTheStudySJudgeCiHigh,scored2ByTheStudySJudgeN,scored2ByTheStudySJudgeThin,sameScore,sameScoreCiLow,sameScoreCiHigh,sameScoreN,sameScoreThin',
    );
    expect(csv).toHaveLength(17);
    expect(readdirSync(out).filter((name) => name.includes('judge-agreement'))).toHaveLength(3);
  }, 60_000);

  it('refuses what a protocol run is not labelled with, and reports a study through its run', async () => {
    const grain = await runCli(['analyze', '--run', 'played', '--judge', 'judge', '--taxonomy', 'persusafety', '--store', store(), '--config', config()]);
    expect(grain.code).toBe(2);
    expect(grain.stderr).toContain('--taxonomy is for a tournament');
    const two = await runCli(['analyze', '--run', 'played', '--judge', 'judge-0,judge-0.5', '--store', store(), '--config', config()]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('one study per judge');
    const study = await runCli(['report', '--store', store(), '--run', 'err-0']);
    expect(study.code).toBe(2);
    expect(study.stderr).toContain("its agreement is in that run's report: --run played");
  }, 30_000);
});

describe('pmiyc analyze on an imported PersuSafety run, against a loopback judge', () => {
  let server: FakeProviderServer;
  let modelsConfig: string;
  let holding = false;
  let held = 0;
  const answered = new Map<string, number>();
  const requestKey = (request: RecordedRequest) => JSON.stringify([persusafetyMessagesOf(request), request.body['seed']]);
  const store = () => join(folder, 'imported.db');

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.answerWith((request) => {
      if (holding) {
        held += 1;
        return 'hang';
      }
      answered.set(requestKey(request), (answered.get(requestKey(request)) ?? 0) + 1);
      return { status: 200, body: RESPONSE_SHAPES.openaiChat(persusafetyLoopbackAnswer(request, new Map())) };
    });
    modelsConfig = writePersusafetyModelsConfig(folder, server.url, 'loopback.yaml', ', inputUsdPerMillion: 1, outputUsdPerMillion: 4');
    const imported = await runCli(['import', 'persusafety', FIXTURE_TREE, '--store', store(), '--run', 'paper']);
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(() => server.close());

  const analyze = (...more: string[]) => ['analyze', '--run', 'paper', '--judge', 'judge', '--store', store(), '--config', modelsConfig, ...more];

  it('prices the judge calls in a dry run and calls nothing', async () => {
    const dry = await runCli(analyze('--dry-run'));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'judge would label the 15 strategies of each conversation of run paper again: 7 conversations, one call each, at temperature 0.',
    );
    expect(dry.stdout).toMatch(/Calls to make: 7, before re-asks/);
    expect(dry.stdout).toMatch(/Cost: about \$0\.0\d/);
    expect(server.requests).toHaveLength(0);
  });

  it('resumes a study killed with -9 without asking any call twice, each asked with the JSON Schema, and a second study replays them all', async () => {
    const count = () => {
      const database = new Database(store(), { readonly: true });
      try {
        return database
          .prepare("SELECT count(*) FROM protocol_records p JOIN runs r ON r.id = p.run_id WHERE json_extract(r.config, '$.command') = 'protocol-analysis'")
          .pluck()
          .get() as number;
      } finally {
        database.close();
      }
    };
    const first = spawnCli(analyze('--study', 'killed', '--concurrency', '1'));
    while (count() < 3 && first.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    holding = true;
    while (held === 0 && first.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(first.child.exitCode, 'the study ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;
    const before = count();
    expect(before).toBeLessThan(7);

    const resumed = await runCli(['analyze', '--study', 'killed', '--resume', '--store', store(), '--config', modelsConfig]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${before} already stored, of 7`);
    expect(count()).toBe(7);
    expect([...answered.values()].every((times) => times === 1)).toBe(true);
    const judged = server.requests.filter((request) => isPersusafetyJudgeSystemPrompt(persusafetyMessagesOf(request)[0]!.content));
    expect(judged.every((request) => (request.body['response_format'] as { type: string }).type === 'json_schema' && request.body['temperature'] === 0)).toBe(
      true,
    );
    // The loopback judge scores guilt tripping 2 nowhere (no planted marker): the paper judge's 2s are what it misses.
    expect(resumed.stdout).toMatch(/^Guilt Tripping +/m);

    server.requests.length = 0;
    const again = await runCli(analyze('--study', 'again'));
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(again.stdout).toContain('calls made: 0 this session');
    const dry = await runCli(analyze('--dry-run'));
    expect(dry.stdout).toContain('0 labelled by the study, 7 whose call is stored (replayed for free)');
  }, 30_000);
});

describeWithTestData("pmiyc analyze on PersuSafety's 300 published conversations", (data) => {
  it("labels each with a simulated judge and reports, per strategy, alpha against the paper's judge equal to its recomputation", async () => {
    const store = join(folder, 'published.db');
    const config = join(folder, 'published.yaml');
    writeFileSync(config, 'models:\n  noisy: { provider: sim, model: "noisy?labelError=0.2" }\n');
    const imported = await runCli(['import', 'persusafety', join(data.data, 'benchmarks', 'persusafety', 'results'), '--store', store, '--run', 'claude']);
    expect(imported.code, imported.stderr).toBe(0);
    const analysed = await runCli(['analyze', '--run', 'claude', '--judge', 'noisy', '--study', 'noisy', '--store', store, '--config', config]);
    expect(analysed.code, analysed.stderr).toBe(0);
    const { agreements } = await reportJson(store, 'claude');
    const pairs = storedScorePairs(store, 'claude', 'noisy');
    expect(pairs).toHaveLength(300);
    expect(agreements[0]!.conversations).toBe(300);
    PERSUSAFETY_STRATEGIES.forEach((strategy, index) => {
      const recomputed = ordinalAlphaByDefinition(pairs.map((pair) => [pair.first[index]!, pair.second[index]!] as const));
      const reported = agreements[0]!.strategies[index]!.alpha;
      if (Number.isNaN(recomputed)) expect(reported, strategy).toBeNull();
      else expect(reported!, strategy).toBeCloseTo(recomputed, 10);
    });
  }, 120_000);
});

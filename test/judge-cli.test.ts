import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJudgePairs, parseAnthropicRatings } from '../src/datasets/judge-pairs.js';
import { argumentRequest, synthesisStep } from '../src/protocol/judge-synthesis-prompt.js';
import { readJudgeStudy } from '../src/report/studies/judge-study-source.js';
import { ResultStore } from '../src/store/result-store.js';
import { showsMorePersuasiveFirst } from '../src/studies/judge/judge-trial.js';
import { runCli } from './cli-helpers.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { runInProcess } from './support/in-process-cli.js';
import { judgeCallOf, judgeServerConfig, startJudgeServer } from './support/judge-server.js';
import { syntheticRatingsCsv } from './support/synthetic-ratings.js';

const RATINGS = syntheticRatingsCsv();
const rated = parseAnthropicRatings('ratings', RATINGS);
const PAIRS = buildJudgePairs(rated).pairs;
const LARGE = PAIRS.filter((pair) => pair.scoreDifference > 1);
const SCORE = new Map(rated.arguments.map((argument) => [`${argument.claim}\u0000${argument.argument}`, argument.changeSum / argument.raters]));
const SEED = 3;

let folder: string;
let dataDir: string;
let counter = 0;
const fresh = (name: string) => join(folder, `${name}-${++counter}`);

/**
 * The judges' known answers: `oracle` picks the argument people scored higher (after one unusable
 * reply on pairs whose arguments start alike, to exercise the re-ask), `first` always picks the
 * first shown, `flaky` is the oracle behind a switchable fault, `writer` writes and rewrites.
 */
let faulty = false;
function respond(model: string, request: RecordedRequest) {
  const messages = request.body['messages'] as Array<{ role: string; content: string }>;
  const step = synthesisStep(messages[0]!.content, messages.at(-1)!.content);
  if (step)
    return step === 'argument' ? `Plain case for: ${/Claim: "(.*)"/.exec(messages[1]!.content)![1]}` : `Stronger case, rewritten: ${messages[2]!.content}`;
  const call = judgeCallOf(request)!;
  const better = (SCORE.get(`${call.claim}\u0000${call.first}`) ?? 0) > (SCORE.get(`${call.claim}\u0000${call.second}`) ?? 0) ? 1 : 2;
  if (model === 'first') return '<choice>1</choice>';
  if (model === 'flaky' && faulty && call.first.length % 3 === 0)
    return { status: 400, body: RESPONSE_SHAPES.openaiError('Invalid request', 'invalid_request_error', null) };
  if (model === 'oracle' && !call.reask && call.first[0] === call.second[0]) return 'Both arguments have merit.';
  return `The better one is <choice>${better}</choice>`;
}

let server: FakeProviderServer;
let config: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-judge-'));
  // Synthetic ratings, written where the download cache would keep the Anthropic file.
  dataDir = join(folder, 'data');
  mkdirSync(join(dataDir, 'anthropic-persuasion'), { recursive: true });
  writeFileSync(join(dataDir, 'anthropic-persuasion/persuasion_data.csv'), RATINGS);
  server = await startJudgeServer(respond);
  config = `${fresh('config')}.yaml`;
  writeFileSync(config, judgeServerConfig(server, ['oracle', 'first', 'flaky', 'writer']));
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const trialsOf = (store: string, run?: string) => {
  const opened = ResultStore.open(store);
  try {
    return [...opened.judge.trials(opened.findRun(run).id)];
  } finally {
    opened.close();
  }
};
const percent = (count: number, total: number) => `${((100 * count) / total).toFixed(1)}% [`;

describe('pmiyc judge on scripted judges with known answers', () => {
  const store = () => `${fresh('store')}.db`;
  const judge = (...args: string[]) => ['judge', '--config', config, '--data-dir', dataDir, '--seed', String(SEED), ...args];

  it('gives the oracle 100%, the first-shown judge exactly the share shown better-first, and replays on --resume', async () => {
    const path = store();
    server.requests.length = 0;
    const result = await runInProcess(judge('--models', 'oracle,first', '--store', path, '--study', 'known'));
    expect(result.stderr).not.toContain('failed (');
    expect(result.code).toBe(0);
    const betterFirst = PAIRS.filter((pair) => showsMorePersuasiveFirst(SEED, pair.id));
    const largeBetterFirst = LARGE.filter((pair) => showsMorePersuasiveFirst(SEED, pair.id));
    const [total, large] = [PAIRS.length, LARGE.length];
    expect(result.stdout).toContain(`Judge run known: ${total} pairs from 3 claims`);
    expect(result.stdout).toMatch(
      new RegExp(`^oracle +100\\.0% \\[100\\.0%, 100\\.0%\\] \\(n = ${total}\\) +100\\.0% \\[100\\.0%, 100\\.0%\\] \\(n = ${large}\\) +0 `, 'm'),
    );
    expect(result.stdout).toContain(`${percent(betterFirst.length, total)}`);
    expect(result.stdout).toContain(`${percent(largeBetterFirst.length, large)}`);

    const trials = trialsOf(path);
    expect(trials).toHaveLength(2 * total);
    const oracle = trials.filter((trial) => trial.model === 'oracle');
    expect(oracle.every((trial) => trial.correct === true)).toBe(true);
    const reasked = PAIRS.filter((pair) => pair.morePersuasive[0] === pair.lessPersuasive[0]).length;
    expect(reasked).toBeGreaterThan(0);
    expect(oracle.filter((trial) => trial.attempts === 2)).toHaveLength(reasked);
    const first = trials.filter((trial) => trial.model === 'first');
    expect(first.filter((trial) => trial.correct).length).toBe(betterFirst.length);
    expect(first.every((trial) => trial.chosen === 1 && trial.correct === trial.morePersuasiveFirst)).toBe(true);
    expect(server.requests).toHaveLength(2 * total + reasked);
    expect(server.requests.every((request) => request.body['temperature'] === 0 && typeof request.body['seed'] === 'number')).toBe(true);

    const made = server.requests.length;
    const resumed = await runInProcess(['judge', '--store', path, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`0 trials this session, ${2 * total} already done`);
    expect(server.requests).toHaveLength(made);

    // The same questions in a new run are answered from the call store.
    const again = await runInProcess(judge('--models', 'oracle,first', '--store', path, '--study', 'again'));
    expect(again.code).toBe(0);
    expect(server.requests).toHaveLength(made);
    expect(trialsOf(path, 'again')).toEqual(trials);

    // The report's section has the same numbers.
    const opened = ResultStore.open(path);
    const section = readJudgeStudy(opened, [opened.findRun('known')], { replicates: 2000 });
    opened.close();
    expect(section!.pairs).toEqual({ total, largeDifference: large, claims: 3 });
    expect(section!.judges.find((entry) => entry.model === 'first')!.overall).toMatchObject({
      value: betterFirst.length / total,
      n: total,
      unusable: 0,
      claims: 3,
    });
    expect(section!.sources[0]!.license).toContain('CC BY-NC-SA 4.0');
  });

  it('keeps going past calls that fail, stores the rest, exits 1, and --resume asks only the failed ones again', async () => {
    const path = store();
    faulty = true;
    server.requests.length = 0;
    const failing = await runInProcess(judge('--models', 'flaky', '--store', path, '--limit', '100'));
    faulty = false;
    const failed = server.requests.filter((request) => judgeCallOf(request)!.first.length % 3 === 0).length;
    expect(failed).toBeGreaterThan(0);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain(`${failed} trials failed (api: ${failed}) and are not stored`);
    expect(failing.stderr).toContain(`pmiyc judge --store ${path} --study judge-1 --resume`);
    expect(trialsOf(path)).toHaveLength(100 - failed);
    // Through its plan, with the trials it could not store counted as failed.
    expect((await runInProcess(['runs', '--store', path])).stdout).toMatch(
      new RegExp(`^judge-1\\s+judge\\s+completed \\(${failed} failed\\)\\s.*\\s${100 - failed}/100\\s`, 'm'),
    );

    server.requests.length = 0;
    const resumed = await runInProcess(['judge', '--store', path, '--study', 'judge-1', '--resume', '--config', config]);
    expect(resumed.code).toBe(0);
    expect(server.requests).toHaveLength(failed);
    expect(trialsOf(path).every((trial) => trial.correct)).toBe(true);
    expect(trialsOf(path)).toHaveLength(100);
    expect((await runInProcess(['runs', '--store', path])).stdout).toMatch(/^judge-1\s+judge\s+completed\s.*\s100\/100\s/m);
  });

  it('stops cleanly on Ctrl-C (exit 130), and the resumed run equals an uninterrupted one', async () => {
    const path = store();
    const stop = new AbortController();
    server.requests.length = 0;
    server.answerWith((request, index) => {
      if (index === 60) stop.abort();
      const answer = respond(String(request.body['model']).replace(/-model$/, ''), request);
      return typeof answer === 'string' ? { status: 200, body: RESPONSE_SHAPES.openaiChat(answer), delayMs: 2 } : answer;
    });
    const args = judge('--models', 'oracle,first', '--limit', '120', '--concurrency', '4');
    const stopped = await runInProcess([...args, '--store', path, '--seed', '11'], { stop });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`Resume with: pmiyc judge --store ${path} --study judge-1 --resume`);
    const partial = trialsOf(path).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(240);
    const resumed = await runInProcess(['judge', '--store', path, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`${partial} already done`);
    const other = store();
    expect((await runInProcess([...args, '--store', other, '--seed', '11', '--no-cache'])).code).toBe(0);
    expect(trialsOf(path)).toEqual(trialsOf(other));
    server.answerWith((request) => {
      const answer = respond(String(request.body['model']).replace(/-model$/, ''), request);
      return typeof answer === 'string' ? { status: 200, body: RESPONSE_SHAPES.openaiChat(answer) } : answer;
    });
  });

  it('judges a user pairs file, and says what to do when the ratings are missing', async () => {
    const pairsFile = `${fresh('pairs')}.jsonl`;
    writeFileSync(pairsFile, [JSON.stringify({ claim: 'C', a: 'short', b: 'a longer argument', better: 'b', difference: 2 })].join('\n'));
    const own = await runInProcess(['judge', '--config', config, '--models', 'sim/length', '--pairs', pairsFile, '--store', store()]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^sim\/length \[simulated\] +100\.0% .*\(n = 1\)/m);
    expect(own.stdout).toContain('unknown (user file)');

    const empty = join(folder, 'empty-data');
    mkdirSync(empty, { recursive: true });
    const missing = await runInProcess(['judge', '--models', 'sim/x', '--data-dir', empty, '--store', store()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${empty} has no anthropic-persuasion/persuasion_data.csv`);
    expect(missing.stderr).toContain('--pairs FILE');
    const noRuns = store();
    ResultStore.open(noRuns).close();
    const resumeNothing = await runInProcess(['judge', '--resume', '--store', noRuns]);
    expect(resumeNothing.code).toBe(2);
    expect(resumeNothing.stderr).toContain('has no judge run to resume');
  });
});

describe('pmiyc judge synthesize', () => {
  it('writes a preference dataset (argument rejected, rewrite chosen) and replays it on a second run', async () => {
    const claims = `${fresh('claims')}.jsonl`;
    writeFileSync(
      claims,
      ['Cities should plant more trees', 'Trains beat planes', 'Libraries need longer hours'].map((claim) => JSON.stringify({ claim })).join('\n'),
    );
    const path = `${fresh('store')}.db`;
    const out = join(folder, 'nested', 'pairs.jsonl');
    server.requests.length = 0;
    const result = await runInProcess([
      'judge',
      'synthesize',
      '--config',
      config,
      '--model',
      'writer',
      '--claims',
      claims,
      '--store',
      path,
      '--out',
      out,
      '--seed',
      '4',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`3 preference pairs from 3 claims written to ${out}`);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1]).toEqual({
      prompt: argumentRequest('Trains beat planes'),
      chosen: 'Stronger case, rewritten: Plain case for: Trains beat planes',
      rejected: 'Plain case for: Trains beat planes',
      claim: 'Trains beat planes',
      claimIndex: 1,
      origin: claims.split('/').at(-1),
      license: 'unknown (user file)',
      model: 'writer',
      seed: 4,
    });
    expect(server.requests).toHaveLength(6);

    const second = join(folder, 'second.jsonl');
    const again = await runInProcess([
      'judge',
      'synthesize',
      '--config',
      config,
      '--model',
      'writer',
      '--claims',
      claims,
      '--store',
      path,
      '--out',
      second,
      '--seed',
      '4',
    ]);
    expect(again.code).toBe(0);
    expect(server.requests).toHaveLength(6);
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(out, 'utf8'));
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('the built CLI', () => {
  it('runs pmiyc judge with simulated judges, exits 0 and prints the table', async () => {
    const result = await runCli(['judge', '--models', 'sim/a', '--data-dir', dataDir, '--store', `${fresh('store')}.db`, '--limit', '20']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^sim\/a \[simulated\] +\d+\.\d% .*\(n = 20\)/m);
  });

  it('shows the judge study in the report of a judge run: report.json studies.judge, an HTML section with its chart, Markdown', async () => {
    const path = `${fresh('store')}.db`;
    expect((await runCli(['judge', '--models', 'sim/a,sim/b', '--data-dir', dataDir, '--store', path, '--sample', '60', '--study', 'reported'])).code).toBe(0);
    const out = join(folder, 'report');
    const report = await runCli(['report', '--store', path, '--run', 'reported', '--out', out]);
    expect(report.code).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      studies: { judge: { pairs: { total: number }; judges: Array<{ model: string; overall: { n: number } }> } };
    };
    expect(json.studies.judge.pairs.total).toBe(60);
    expect(json.studies.judge.judges.map((judge) => [judge.model, judge.overall.n])).toEqual([
      ['sim/a', 60],
      ['sim/b', 60],
    ]);
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('<section class="block" id="judge">');
    expect(page).toContain('id="figure-judge-accuracy"');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Can a model judge persuasiveness? (paper Sec. 4.1.2)');
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RHETORIC_TAXONOMY } from '../src/config/taxonomy/rhetoric-taxonomy.js';
import type { AgreementScore } from '../src/domain/agreement-score.js';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-drift-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const fresh = pathMaker(() => folder);
const DRIFTER = 'sim/drifter?drift=-0.6';
const PLANTED = -0.6;
const runArgs = (claims: string, store: string, run: string) =>
  ['run', '--models', `${DRIFTER},sim/steady`, '--claims', claims, '--setting', 'single', '--store', store, '--run', run, '--concurrency', '4'] as const;

interface ExportedRecord {
  conversationId: string;
  persuader: string;
  status: string;
  persuaderStance: AgreementScore | null;
  driftProbe?: { score: AgreementScore | null; attempts: number; raw: string; callHash: string | null };
  [key: string]: unknown;
}

const exportOf = async (store: string, run: string): Promise<ExportedRecord[]> => {
  const result = await runCli(['export', '--store', store, '--run', run, '--format', 'jsonl']);
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ExportedRecord);
};

interface DriftRow {
  persuader: string;
  persuadee: string | null;
  drift: number;
  ciLow: number;
  ciHigh: number;
  conversations: number;
  missing: number;
  unusable: number;
}

const reportOf = async (store: string, run: string) => {
  const out = fresh('report');
  const result = await runCli(['report', '--store', store, '--run', run, '--out', out]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    drift?: { source: string; sources: Array<{ run: string; source: string; study: string | null }>; perPersuader: DriftRow[]; perPair: DriftRow[] };
  };
  return { out, json, markdown: readFileSync(join(out, 'report.md'), 'utf8'), html: readFileSync(join(out, 'index.html'), 'utf8') };
};

describe('pmiyc run --probe-drift with simulated persuaders', () => {
  const claims = () => writeClaims(`${fresh('claims')}.jsonl`, 16);
  let claimsFile: string;
  let probed: string;
  let plain: string;
  beforeAll(async () => {
    claimsFile = claims();
    probed = `${fresh('probed')}.db`;
    plain = `${fresh('plain')}.db`;
    expect((await runCli([...runArgs(claimsFile, probed, 'drift'), '--probe-drift'])).code).toBe(0);
    expect((await runCli([...runArgs(claimsFile, plain, 'plain')])).code).toBe(0);
  }, 120_000);

  it('shows the probes in the dry run, keeps each in its record, and the report recovers the planted drift within its interval', async () => {
    const dryRun = await runCli([...runArgs(claimsFile, `${fresh('empty')}.db`, 'dry'), '--probe-drift', '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain('Drift probes (--probe-drift): 64 of these calls ask a persuader where it stands after its conversation');
    expect(dryRun.stdout).toMatch(/Calls to make: at most 224 /);

    const records = await exportOf(probed, 'drift');
    expect(records).toHaveLength(64);
    for (const record of records) {
      expect(record.status).toBe('completed');
      expect(record.driftProbe).toMatchObject({ attempts: 1, callHash: expect.any(String) });
      expect(record.driftProbe!.score).toBeGreaterThanOrEqual(1);
    }
    expect(storedRun(probed, 'drift').config['design']).toMatchObject({ probeDrift: true });

    const { json, markdown, html, out } = await reportOf(probed, 'drift');
    expect(json.drift?.source).toBe('run');
    expect(json.drift?.sources).toEqual([{ run: 'drift', source: 'run', study: null }]);
    const drifter = json.drift!.perPersuader.find((row) => row.persuader === DRIFTER)!;
    expect(drifter).toMatchObject({ persuadee: null, conversations: 32, missing: 0, unusable: 0 });
    expect(drifter.ciHigh).toBeLessThan(0);
    expect(drifter.ciLow).toBeLessThanOrEqual(PLANTED);
    expect(drifter.ciHigh).toBeGreaterThanOrEqual(PLANTED);
    expect(json.drift!.perPersuader.map((row) => row.persuader)).toEqual([DRIFTER, 'sim/steady']);
    expect(json.drift!.perPair).toHaveLength(4);
    expect(markdown).toContain('## Are persuaders persuaded? (paper Sec. 5.3)');
    expect(markdown).toContain("![Persuaders' drift after their conversations](charts/drift.svg)");
    expect(html).toContain('<section class="block" id="drift">');
    expect(readFileSync(join(out, 'drift.csv'), 'utf8').split('\n')[0]).toMatch(/^domain,setting,persuader,persuadee,persuaderSimulated,drift,ciLow,ciHigh,/);
  });

  it('leaves a run without --probe-drift as it was: the same records and calls less the probes, and no drift in its report', async () => {
    const withProbes = await exportOf(probed, 'drift');
    const without = await exportOf(plain, 'plain');
    const comparable = (records: ExportedRecord[]) => records.map(({ run: _run, driftProbe: _probe, ...record }) => record);
    expect(without.some((record) => 'driftProbe' in record)).toBe(false);
    expect(comparable(without)).toEqual(comparable(withProbes));
    expect(storedRun(plain, 'plain').calls).toBe(storedRun(probed, 'drift').calls - 64);
    expect(storedRun(plain, 'plain').config['design']).not.toHaveProperty('probeDrift');
    const { json, markdown, out } = await reportOf(plain, 'plain');
    expect(json).not.toHaveProperty('drift');
    expect(markdown).not.toContain('Are persuaders persuaded?');
    expect(existsSync(join(out, 'drift.csv'))).toBe(false);
  });

  it('keeps probing on --resume, which refuses a --probe-drift the run was not started with', async () => {
    const database = new Database(probed);
    const dropped = database.prepare('SELECT id FROM conversations ORDER BY id LIMIT 10').pluck().all() as string[];
    for (const id of dropped) {
      database.prepare('DELETE FROM conversations WHERE id = ?').run(id);
      database.prepare('DELETE FROM turns WHERE conversation_id = ?').run(id);
    }
    database.close();
    const resumed = await runCli(['run', '--store', probed, '--run', 'drift', '--resume']);
    expect(resumed.code).toBe(0);
    const records = await exportOf(probed, 'drift');
    expect(records).toHaveLength(64);
    for (const id of dropped) expect(records.find((record) => record.conversationId === id)?.driftProbe?.score).toEqual(expect.any(Number));

    const refused = await runCli(['run', '--store', plain, '--run', 'plain', '--resume', '--probe-drift']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--probe-drift is given, but run plain has not given');
  });

  it("reports the drift of a run from its latest analysis study's drift probes when its records hold none, naming the study", async () => {
    const records = await exportOf(plain, 'plain');
    const design = {
      judges: ['sim/judge'],
      taxonomy: RHETORIC_TAXONOMY,
      taxonomySource: 'rhetoric',
      probeDrift: true,
      sampling: { temperature: 0, maxOutputTokens: 400, maxAttempts: 3 },
    };
    const studyConfig = { command: 'analyze', tournamentRun: 'plain', design, simulated: ['sim/judge'] };
    const store = ResultStore.open(plain);
    try {
      const about = { seed: 0, packageVersion: '0.0.0' };
      const older = store.createRun({ name: 'analysis-old', ...about, config: studyConfig });
      store.analysis.saveProbe(older.id, {
        conversationId: records[0]!.conversationId,
        model: records[0]!.persuader,
        score: 1,
        attempts: 1,
        raw: '',
        callHash: null,
      });
      const study = store.createRun({ name: 'analysis-new', ...about, config: studyConfig });
      // Every persuader moves one point up from its stance (or stays at 5), but one probe gave no usable answer and one conversation has no row.
      records.slice(2).forEach((record, index) => {
        const score = index === 0 ? null : (Math.min(5, record.persuaderStance! + 1) as AgreementScore);
        store.analysis.saveProbe(study.id, { conversationId: record.conversationId, model: record.persuader, score, attempts: 1, raw: '', callHash: null });
      });
      store.createRun({ name: 'analysis-latest', ...about, config: studyConfig });
    } finally {
      store.close();
    }
    const { json, markdown } = await reportOf(plain, 'plain');
    expect(json.drift?.source).toBe('analysis');
    expect(json.drift?.sources).toEqual([{ run: 'plain', source: 'analysis', study: 'analysis-new' }]);
    const rows = json.drift!.perPersuader;
    expect(rows.reduce((total, row) => total + row.conversations, 0)).toBe(61);
    expect(rows.reduce((total, row) => total + row.missing, 0)).toBe(2);
    expect(rows.reduce((total, row) => total + row.unusable, 0)).toBe(1);
    for (const row of rows) expect(row.drift).toBeGreaterThan(0);
    expect(markdown).toContain('Probes from run plain: analysis study analysis-new.');
  });
});

describe('a drift probe whose call fails', () => {
  const isProbe = (request: RecordedRequest) => {
    const messages = request.body['messages'] as Array<{ content: string }>;
    return messages.at(-1)!.content.includes('The discussion is over, and so is your part in it.');
  };

  it('fails its conversation, saying why, and --retry-failed asks only the probe again', async () => {
    let probesFail = true;
    const server = await startFakeChatServer({
      respond: (request) => (probesFail && isProbe(request) ? { status: 400, body: { error: { message: 'no probes today' } } } : undefined),
    });
    try {
      const config = writeChatConfig(`${fresh('config')}.yaml`, server.url);
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 2);
      const store = `${fresh('store')}.db`;
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--setting', 'single', '--store', store, '--run', 'r'];
      const first = await runCli([...args, '--probe-drift']);
      expect(first.code).not.toBe(0);
      const failed = await exportOf(store, 'r');
      expect(failed).toHaveLength(8);
      for (const record of failed) {
        expect(record).toMatchObject({ status: 'failed', failureReason: 'api', failedRole: 'persuader' });
        expect(record['failureDetail']).toMatch(/^the persuader's drift probe \(its stance asked again after the conversation\) was not answered: /);
        expect(record).not.toHaveProperty('driftProbe');
      }
      probesFail = false;
      const before = server.requests.length;
      const retried = await runCli(['run', '--store', store, '--run', 'r', '--retry-failed']);
      expect(retried.code).toBe(0);
      const asked = server.requests.slice(before);
      expect(asked).toHaveLength(8);
      expect(asked.every(isProbe)).toBe(true);
      const records = await exportOf(store, 'r');
      expect(records.every((record) => record.status === 'completed' && typeof record.driftProbe?.score === 'number')).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);
});

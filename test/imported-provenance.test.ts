import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import type { ImportedResults } from '../src/report/sections/imported-figures.js';
import { runCli } from './cli-helpers.js';
import { launchChromium, openWatched } from './support/chromium.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { describeWithTestData } from './support/test-data.js';

/** Records 28, 4 and 14 of the real results file, in that order (test/fixtures/README.md): record 14 is at index 2 here. */
const FIXTURE_FILE = fileURLToPath(new URL('./fixtures/official-results/experiments/multi_turn_subj/mistral_mistral_0/results.json', import.meta.url));
/** Where record 14 of the real file sits in the shipped excerpt. */
const RECORD_14_IN_FIXTURE = 2;

interface Figure {
  n: number;
  meanNC?: number;
  value?: number;
}
interface Report {
  pairs: Figure[];
  effectiveness: Figure[];
  susceptibility: Figure[];
  imported?: ImportedResults;
  meta: { notes: string[]; runs: Array<{ seed: number | null }> };
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-provenance-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function importInto(store: string, file: string): Promise<string> {
  const result = await runCli(['import', 'official', file, '--run', 'official', '--store', store]);
  expect(result.code).toBe(0);
  return result.stdout;
}

async function exported(store: string): Promise<ConversationRecord[]> {
  const result = await runCli(['export', '--store', store, '--run', 'official']);
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ConversationRecord);
}

async function report(store: string, name: string): Promise<{ json: Report; markdown: string; html: string; stdout: string }> {
  const out = join(folder, name);
  const result = await runCli(['report', '--store', store, '--run', 'official', '--format', 'json,md,html', '--out', out]);
  expect(result.code).toBe(0);
  const read = (file: string) => readFileSync(join(out, file), 'utf8');
  return { json: JSON.parse(read('report.json')) as Report, markdown: read('report.md'), html: read('index.html'), stdout: result.stdout };
}

/** The report's figures over every conversation, and without the disputed ones, both from the records' own NC. */
function expectFiguresWithAndWithout(json: Report, records: readonly ConversationRecord[], disputedIds: readonly string[]): void {
  const kept = records.filter((record) => !disputedIds.includes(record.conversationId));
  expect(json.pairs[0]).toMatchObject({ n: records.length });
  expect(json.pairs[0]!.meanNC).toBeCloseTo(mean(records.map((record) => record.normalizedChange!)), 12);
  const without = json.imported!.withoutDisputed;
  expect(without.conversations).toBe(kept.length);
  expect(without.pairs).toHaveLength(1);
  expect(without.pairs[0]).toMatchObject({ persuader: 'mistral', persuadee: 'mistral', n: kept.length });
  expect(without.pairs[0]!.meanNC).toBeCloseTo(mean(kept.map((record) => record.normalizedChange!)), 12);
  // Self-play of one model: its effectiveness and susceptibility are its one pair mean, with and without.
  for (const measure of ['effectiveness', 'susceptibility'] as const) {
    expect(json[measure][0]!.value).toBeCloseTo(json.pairs[0]!.meanNC!, 12);
    expect(without[measure][0]).toMatchObject({ model: 'mistral', n: kept.length });
    expect(without[measure][0]!.value).toBeCloseTo(without.pairs[0]!.meanNC, 12);
  }
  expect(json.imported!.disputed.map((entry) => entry.conversationId)).toEqual(disputedIds);
}

/** Rewrites every stored record as pmiyc 0.1.0 stored an import: without `imported.disputedScores`. */
function storeAsBefore(path: string): void {
  const database = new Database(path);
  try {
    const rows = database.prepare('SELECT rowid, record FROM conversations').all() as Array<{ rowid: number; record: Buffer }>;
    const update = database.prepare('UPDATE conversations SET record = ? WHERE rowid = ?');
    for (const { rowid, record } of rows) {
      const json = JSON.parse(inflateRawSync(record.subarray(1)).toString('utf8')) as { runSeed: unknown; imported: Record<string, unknown> };
      expect(json.runSeed).toBe(0);
      delete json.imported['disputedScores'];
      update.run(Buffer.concat([record.subarray(0, 1), deflateRawSync(JSON.stringify(json))]), rowid);
    }
  } finally {
    database.close();
  }
}

describe('imported results show where they come from and which turns pmiyc reads differently (shipped excerpt)', () => {
  let store: string;
  let records: ConversationRecord[];
  let disputed: ConversationRecord;
  let importSummary: string;
  beforeAll(async () => {
    store = join(folder, 'excerpt.db');
    importSummary = await importInto(store, FIXTURE_FILE);
    records = await exported(store);
    disputed = records.find((record) => record.imported?.recordIndex === RECORD_14_IN_FIXTURE)!;
  });

  it('marks record 14 (every reply echoes the label list) as resting on disputed replies, in its export record and pmiyc show', async () => {
    expect(records.map((record) => [record.imported!.recordIndex, record.imported!.disputedScores])).toEqual(
      expect.arrayContaining([
        [0, []],
        [1, []],
        [RECORD_14_IN_FIXTURE, ['initial', 'final']],
      ]),
    );
    expect(disputed.imported).toMatchObject({ file: FIXTURE_FILE, sha256: sha256Of(FIXTURE_FILE), claimNumber: 23 });
    expect(importSummary).toContain(
      '1 conversation has its initial or final score resting on such a reply (disputed): pmiyc report gives the figures with and without it',
    );
    // The file keeps no seeds, and none is invented.
    for (const record of records) {
      expect(record.runSeed).toBeNull();
      expect(new Set(record.turns.flatMap((turn) => turn.attempts.map((attempt) => attempt.seed)))).toEqual(new Set([null]));
    }
    const json = await runCli(['show', disputed.conversationId, '--store', store, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(disputed);

    const shown = await runCli(['show', disputed.conversationId, '--store', store]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('A 15-turn conversation, seed: none (imported)\n');
    expect(shown.stdout).not.toMatch(/seed \d/);
    expect(shown.stdout).toContain(
      `Imported from ${FIXTURE_FILE}, record ${RECORD_14_IN_FIXTURE} (from 0, claim number 23)\n  sha256 ${sha256Of(FIXTURE_FILE)}\n`,
    );
    expect(shown.stdout).toContain(
      'reads 15 of its 15 replies differently from the scores the file recorded (marked below); the initial and final scores rest on such turns',
    );
    expect(shown.stdout.match(/ {5}disputed: the official code read Completely Oppose \(1\), the score kept and used; pmiyc's parser/g)).toHaveLength(15);
    expect(shown.stdout).toContain('No calls: the conversation was imported');
  });

  it('gives the imported figures with and without the conversations whose initial or final score rests on a disputed turn', async () => {
    const { json, markdown, html, stdout } = await report(store, 'report');
    expect(stdout).toContain("1 imported conversation has its initial or final score resting on a reply pmiyc's parser reads differently");
    expect(json.imported).toMatchObject({
      disputedConversations: 1,
      runs: [
        {
          run: 'official',
          conversations: 3,
          replies: 25,
          disputedTurns: 15,
          disputedConversations: 1,
          labelMatch: ['strict'],
          files: [{ path: FIXTURE_FILE, sha256: sha256Of(FIXTURE_FILE), conversations: 3 }],
        },
      ],
      disputed: [{ run: 'official', file: FIXTURE_FILE, recordIndex: RECORD_14_IN_FIXTURE, disputedScores: ['initial', 'final'], normalizedChange: 0 }],
    });
    expectFiguresWithAndWithout(json, records, [disputed.conversationId]);
    expect(json.meta.runs[0]!.seed).toBeNull();
    expect(json.meta.notes).toContainEqual(expect.stringContaining(`from 1 file: ${FIXTURE_FILE} (sha256 ${sha256Of(FIXTURE_FILE)})`));
    expect(json.meta.notes).toContainEqual(expect.stringContaining('1 conversation has its initial or final score resting on one'));
    for (const text of [markdown, html]) {
      expect(text).toContain('Imported results: with and without disputed scores');
      expect(text).toContain(disputed.conversationId);
      expect(text).toContain('1 has an initial or final score that rests on a disputed turn');
    }
    expect(markdown).toMatch(/\| mistral \| mistral \| 0\.50 ~\[[^\]]+\] \(n = 3\) \| 0\.75 ~\[[^\]]+\] \(n = 2\) \| \\\+0\.25 \|/);
    expect(markdown).toMatch(/\| official \| 2026-[^|]+ \| none \(imported\) \|/);
  });

  it('marks the disputed turns of the conversations the report gives to read, with what each parser read', async () => {
    const { markdown, html } = await report(store, 'report');
    const toRead = markdown.slice(markdown.indexOf(disputed.conversationId, markdown.indexOf('## Conversations to read')));
    expect(toRead).toMatch(/\*Disputed:\* the official code read Completely Oppose \(1\), the score kept and used; pmiyc's parser \(--label-match strict\)/);
    const article = html.slice(
      html.indexOf(`id="conversation-${disputed.conversationId}"`),
      html.indexOf('</article>', html.indexOf(`id="conversation-${disputed.conversationId}"`)),
    );
    expect(article.match(/<p class="dispute"><strong>disputed:<\/strong>/g)).toHaveLength(15);
  });

  it('shows the same for a run imported by the previous version, which stored no disputed scores', async () => {
    const before = join(folder, 'before.db');
    await importInto(before, FIXTURE_FILE);
    storeAsBefore(before);
    expect(await exported(before)).toEqual(records.map((record) => ({ ...record })));
    const { json } = await report(before, 'report-before');
    expect(json.imported?.disputed.map((entry) => entry.recordIndex)).toEqual([RECORD_14_IN_FIXTURE]);
    expectFiguresWithAndWithout(json, records, [disputed.conversationId]);
  });

  describe('in pmiyc view (headless Chromium)', () => {
    const stop = new AbortController();
    let served: Promise<number>;
    let url: string;
    let browser: BrowserContext;
    beforeAll(async () => {
      const viewer = cliInProcess(['view', '--store', store, '--port', '0', '--no-open'], stop.signal);
      served = viewer.done;
      url = await servedUrl(viewer.output);
      browser = await launchChromium(join(folder, 'profile'), 1300);
    }, 120_000);
    afterAll(async () => {
      stop.abort();
      expect(await served).toBe(0);
      await browser?.close();
    });

    it("shows the run's files and no seed, marks the disputed conversation in the list and each of its disputed turns", async () => {
      const { page, problems } = await openWatched(browser, `${url}#/runs/official`);
      await page.locator('dl.facts').waitFor();
      const facts = await page.locator('dl.facts').innerText();
      expect(facts).toContain('seed: none (imported)');
      expect(facts).toContain(`${FIXTURE_FILE} sha256 ${sha256Of(FIXTURE_FILE)} (3 of 3 records)`);

      await page.goto(`${url}#/runs/official/conversations`);
      await page.locator('#page-position').waitFor();
      const row = page.locator('#view tbody tr', { hasText: disputed.conversationId });
      expect(await row.innerText()).toContain(`imported, record ${RECORD_14_IN_FIXTURE}`);
      expect(await row.locator('.badge.disputed').innerText()).toBe('disputed initial and final scores');
      expect(await page.locator('#view tbody .badge.disputed').count()).toBe(1);

      await row.locator('a').first().click();
      await page.locator('ol.turns').waitFor();
      const conversationFacts = await page.locator('dl.facts').innerText();
      expect(conversationFacts).toContain(FIXTURE_FILE);
      expect(conversationFacts).toContain(sha256Of(FIXTURE_FILE));
      expect(conversationFacts).toContain(`${RECORD_14_IN_FIXTURE} (its place in the file, from 0); claim number 23`);
      expect(conversationFacts).toContain('none: imported');
      expect(conversationFacts).toContain('The initial and final scores rest on them');
      expect(await page.locator('ol.turns > li.disputed').count()).toBe(15);
      const notes = await page.locator('ol.turns > li .dispute').allInnerTexts();
      expect(notes).toHaveLength(15);
      for (const note of notes)
        expect(note).toMatch(/^disputed: the official code read 1 Completely Oppose \(the score kept\); pmiyc's parser \(--label-match strict\) rejects it/);
      await page.locator('ol.turns details summary').first().click();
      expect(await page.locator('ol.turns details table').first().innerText()).toContain('none (imported)');
      expect(problems).toEqual([]);
    });
  });
});

describeWithTestData('imported provenance on the real official results file', (data) => {
  it('marks record 14 alone as resting on disputed replies, and the report gives the figures with and without it', async () => {
    const file = join(data.data, 'pmiyc-official-results', 'experiments', 'multi_turn_subj', 'mistral_mistral_0', 'results.json');
    const store = join(folder, 'real.db');
    await importInto(store, file);
    const records = await exported(store);
    expect(records).toHaveLength(29);
    const disputed = records.filter((record) => record.imported!.disputedScores.length > 0);
    expect(disputed.map((record) => [record.imported!.recordIndex, record.imported!.disputedScores])).toEqual([[14, ['initial', 'final']]]);
    // Every one of record 14's 15 turns is disputed: its NC of 0 rests on the official code reading an echoed label list as 1.
    expect(disputed[0]!.imported!.differences.map((difference) => difference.turn)).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
    expect(disputed[0]!.normalizedChange).toBe(0);

    const { json, markdown } = await report(store, 'report-real');
    expect(json.imported).toMatchObject({ disputedConversations: 1, runs: [{ conversations: 29, replies: 357, disputedTurns: 22, disputedConversations: 1 }] });
    expectFiguresWithAndWithout(json, records, [disputed[0]!.conversationId]);
    expect(json.imported!.withoutDisputed.pairs[0]!.n).toBe(28);
    expect(markdown).toMatch(/\| mistral \| mistral \| 0\.38 \[[^\]]+\] \(n = 29\) \| 0\.39 \[[^\]]+\] \(n = 28\) \| \\?\+0\.01 \|/);
  });
});

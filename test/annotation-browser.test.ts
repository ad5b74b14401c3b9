import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgreementScore } from '../src/domain/agreement-score.js';
import { loadReliabilityStudy } from '../src/report/studies/reliability-study-source.js';
import { ResultStore } from '../src/store/result-store.js';
import { LabelBook, parseLabelsFile } from '../src/studies/annotation/annotation-labels.js';
import { type AnnotationTaskFile, parseTaskFile } from '../src/studies/annotation/annotation-tasks.js';
import { runCli } from './cli-helpers.js';
import { launchChromium, openWatched, type WatchedPage } from './support/chromium.js';
import { annotateCli, servedUrl } from './support/cli-in-process.js';
import { HOSTILE, hostileRecords } from './support/hostile-records.js';

let folder: string;
let browser: BrowserContext;
/** Every server a test starts is stopped here, even when the test fails. */
const servers: Array<{ stop: AbortController; done: Promise<number> }> = [];

async function serve(tasks: string, annotator: string): Promise<{ url: string; labels: string; stop: () => Promise<number> }> {
  const stop = new AbortController();
  const labels = join(folder, `${annotator}.labels.jsonl`);
  const { done, output } = annotateCli(['serve', '--tasks', tasks, '--annotator', annotator, '--labels', labels, '--port', '0'], stop.signal);
  servers.push({ stop, done });
  const url = await servedUrl(output);
  return {
    url,
    labels,
    stop: () => {
      stop.abort();
      return done;
    },
  };
}

async function open(url: string, annotationPage = true): Promise<WatchedPage> {
  const watched = await openWatched(browser, url);
  if (annotationPage) await watched.page.locator('body[data-ready="true"]').waitFor();
  return watched;
}

const saved = (page: Page) => page.locator('#save-status[data-state="saved"]').waitFor();
const shownScores = (page: Page) =>
  page.locator('#turns li.to-label').evaluateAll((items) => items.map((item) => (item as unknown as { dataset: { score?: string } }).dataset.score ?? null));

describe('the annotation page in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-annotation-browser-'));
    browser = await launchChromium(join(folder, 'profile'), 1100);
  });
  afterAll(async () => {
    for (const server of servers) server.stop.abort();
    await Promise.allSettled(servers.map((server) => server.done));
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('labels a conversation with the keyboard, keeps the labels over a reload and an outage, and imports two annotators', async () => {
    const store = join(folder, 'demo.db');
    expect((await runCli(['demo', '--store', store], { cwd: folder })).code).toBe(0);
    const tasksPath = join(folder, 'tasks.json');
    expect(await annotateCli(['export', '--store', store, '--out', tasksPath]).done).toBe(0);
    const tasks: AnnotationTaskFile = parseTaskFile(readFileSync(tasksPath, 'utf8'), tasksPath);
    const conversation = tasks.conversations[0]!;
    const turns = conversation.turns.filter((turn) => turn.toLabel).map((turn) => turn.index);
    const totalTurns = tasks.conversations.reduce((sum, entry) => sum + entry.turns.filter((turn) => turn.toLabel).length, 0);

    // The models' own scores, which the page never sees: alice types them, except on the last turn.
    const database = ResultStore.openExisting(store);
    const runId = database.findRun('demo-1').id;
    const table = database.annotations;
    const modelScores = turns.map((index) => table.modelTurn(runId, conversation.conversationId, index)!.score);
    database.close();
    const off = (score: AgreementScore): AgreementScore => (score === 5 ? 4 : ((score + 1) as AgreementScore));
    const alice = modelScores.map((score, position) => (position === turns.length - 1 ? off(score) : score));

    const server = await serve(tasksPath, 'alice');
    const { page, problems, dialogs, requests } = await open(server.url);
    expect(await page.locator('#progress').innerText()).toBe(`0 of ${totalTurns} turns labelled`);
    expect(await page.locator('#conversation-position').innerText()).toBe(`Conversation 1 of ${tasks.conversations.length}`);
    // Only the conversation up to the highlighted turn is shown.
    expect(await page.locator('#turns li').count()).toBe(1);
    for (const score of alice) await page.keyboard.press(String(score));
    await saved(page);
    expect(await page.locator('#progress').innerText()).toBe(`${turns.length} of ${totalTurns} turns labelled`);
    expect(await shownScores(page)).toEqual(alice.map(String));
    // Up one turn, clear it, label it again: arrows and 0 work too.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('0');
    await saved(page);
    expect(await page.locator('#progress').innerText()).toBe(`${turns.length - 1} of ${totalTurns} turns labelled`);
    await page.keyboard.press(String(alice.at(-2)));
    await saved(page);
    // n and p move between conversations.
    await page.keyboard.press('n');
    expect(await page.locator('#conversation-position').innerText()).toBe(`Conversation 2 of ${tasks.conversations.length}`);
    await page.keyboard.press('p');

    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    expect(await page.locator('#conversation-position').innerText()).toBe(`Conversation 1 of ${tasks.conversations.length}`);
    expect(await page.locator('#progress').innerText()).toBe(`${turns.length} of ${totalTurns} turns labelled`);
    expect(await shownScores(page)).toEqual(alice.map(String));
    const onDisk = parseLabelsFile(readFileSync(server.labels, 'utf8'), server.labels);
    expect(onDisk.header).toMatchObject({ annotator: 'alice', run: 'demo-1', taskSetId: tasks.taskSetId });
    expect(onDisk.labels.map((label) => [label.conversationId, label.turnIndex, label.score])).toEqual(
      turns.map((index, position) => [conversation.conversationId, index, alice[position]]),
    );

    // The server cannot be reached: a label is kept in the browser, and sent after the next load.
    await page.route('**/api/labels', (route) => (route.request().method() === 'POST' ? route.abort() : route.continue()));
    await page.keyboard.press('n');
    await page.keyboard.press('3');
    await page.locator('#save-status[data-state="offline"]').waitFor();
    await page.unroute('**/api/labels');
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    await saved(page);
    const second = tasks.conversations[1]!;
    const firstOfSecond = second.turns.find((turn) => turn.toLabel)!.index;
    expect(parseLabelsFile(readFileSync(server.labels, 'utf8'), server.labels).labels.at(-1)).toMatchObject({
      conversationId: second.conversationId,
      turnIndex: firstOfSecond,
      score: 3,
    });
    expect(await page.locator('#progress').innerText()).toBe(`${turns.length + 1} of ${totalTurns} turns labelled`);
    // The outage is the only trouble the page reported; nothing was fetched from elsewhere.
    expect(problems.filter((problem) => !/Failed to load resource|ERR_FAILED/.test(problem))).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    expect(await server.stop()).toBe(0);

    // bob labelled the same conversation (and nothing else), agreeing with the models everywhere.
    const bobBook = new LabelBook(tasks, 'bob');
    for (const [position, index] of turns.entries()) {
      bobBook.apply({ conversationId: conversation.conversationId, turnIndex: index, score: modelScores[position]!, labelledAt: '2026-12-01T10:00:00.000Z' });
    }
    const bobPath = join(folder, 'bob.labels.jsonl');
    writeFileSync(bobPath, bobBook.toJsonl());
    expect(await annotateCli(['import', '--store', store, server.labels, bobPath]).done).toBe(0);

    // What the report reads for studies.reliability.
    const reopened = ResultStore.openExisting(store);
    const rows = reopened.annotations.rows([runId]);
    const study = loadReliabilityStudy(reopened, [reopened.findRun('demo-1')], { replicates: 200, confidence: 0.95, seed: 0 })!;
    reopened.close();
    const k = turns.length;
    // alice: k labels on conversation 1 (one off by a point) and 1 on conversation 2; bob: k, all equal.
    const secondModelScore = rows.find((row) => row.conversationId === second.conversationId)!.modelScore;
    const secondMatches = secondModelScore === 3 ? 1 : 0;
    expect(study.labels).toBe(2 * k + 1);
    expect(study.exactMatch.value).toBeCloseTo((2 * k - 1 + secondMatches) / (2 * k + 1), 12);
    expect(study.meanAbsoluteDifference.value).toBeCloseTo((1 + Math.abs(secondModelScore - 3)) / (2 * k + 1), 12);
    expect(study.confusion.flat().reduce((sum, count) => sum + count, 0)).toBe(2 * k + 1);
    expect(study.interAnnotator).toMatchObject({ annotators: 2, sharedTurns: k, pairs: k });
    expect(study.interAnnotator.pairwiseExactAgreement).toBeCloseTo((k - 1) / k, 12);
    expect(study.annotators.map((entry) => [entry.annotator, entry.labels])).toEqual([
      ['alice', k + 1],
      ['bob', k],
    ]);

    // The run's report shows the study: report.json's studies.reliability and a section of the page.
    const report = join(folder, 'report');
    expect(
      (await runCli(['report', '--store', store, '--run', 'demo-1', '--out', report, '--format', 'json,html,md', '--replicates', '200'], { cwd: folder })).code,
    ).toBe(0);
    const reliability = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')).studies.reliability;
    expect(reliability).toMatchObject({ labels: 2 * k + 1, turns: k + 1, conversations: 2, confusion: study.confusion });
    expect(reliability.exactMatch.value).toBeCloseTo(study.exactMatch.value, 12);
    expect(reliability.interAnnotator.pairwiseExactAgreement).toBeCloseTo((k - 1) / k, 12);
    expect(readFileSync(join(report, 'report.md'), 'utf8')).toContain('## Self-report reliability (paper Sec. 5.2, Fig. 8)');
    const reader = await open(`file://${join(report, 'index.html')}`, false);
    expect(await reader.page.locator('section#self-report figure.chart svg').count()).toBe(1);
    expect(await reader.page.locator('nav.toc a[href="#self-report"]').count()).toBe(1);
    expect(reader.problems).toEqual([]);
  });

  it('shows hostile model text as text, with no dialog, no injected element and no console error', async () => {
    const path = join(folder, 'hostile.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'hostile', createdAt: '2026-11-30T10:00:00Z', seed: 0, packageVersion: 'test', config: {} });
    for (const record of hostileRecords()) store.saveConversation(run.id, record);
    store.close();
    const tasksPath = join(folder, 'hostile-tasks.json');
    expect(await annotateCli(['export', '--store', path, '--setting', 'both', '--sample', '5', '--out', tasksPath]).done).toBe(0);
    const tasks = parseTaskFile(readFileSync(tasksPath, 'utf8'), tasksPath);

    const server = await serve(tasksPath, 'mallory');
    const { page, problems, dialogs } = await open(server.url);
    const seen: string[] = [];
    for (let position = 0; position < tasks.conversations.length; position++) {
      // Walk every turn so that every message is on the page once.
      for (let step = 0; step < 6; step++) await page.keyboard.press('j');
      seen.push(await page.locator('main').innerText());
      expect(await page.evaluate("document.querySelectorAll('main img, main script, main svg, main iframe').length")).toBe(0);
      await page.keyboard.press('n');
    }
    const text = seen.join('\n');
    expect(text).toContain(HOSTILE.image);
    expect(text).toContain(HOSTILE.script);
    expect(text).toContain(HOSTILE.attribute);
    expect(
      await page.evaluate(
        "[...document.querySelectorAll('*')].some((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on')))",
      ),
    ).toBe(false);
    expect(await page.evaluate('document.scripts.length')).toBe(1);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(await server.stop()).toBe(0);
  });
});

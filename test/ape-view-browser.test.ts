import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apeRoleOfSystemPrompt } from '../src/protocols/ape/ape-prompts.js';
import type { ApeStoredRecord } from '../src/protocols/ape/run/ape-record.js';
import { ResultStore } from '../src/store/result-store.js';
import type { ProtocolItemAnswer, ProtocolItemsAnswer } from '../src/web/wire/protocol-items.js';
import type { RunsAnswer } from '../src/web/wire/view-answers.js';
import { runCli } from './cli-helpers.js';
import { apeLoopbackAnswer, apeMessagesOf, apeRunArgs, readApeRecords, writeApeModelsConfig } from './support/ape-loopback.js';
import { openWatched, type ViewerInChromium, viewInChromium, type WatchedPage } from './support/chromium.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import { HOSTILE } from './support/hostile-records.js';

/**
 * `pmiyc view` of an APE run made by the built CLI against a loopback server (test/support/ape-loopback.ts): its
 * API answers, then the pages in headless Chromium (served, and as a static bundle opened from disk), each checked
 * against the records the run stored: every turn's class and every belief shown is the stored one, and the model
 * text, hostile here, stays text.
 */

const RUN = 'ape-view';
const COLUMNS = ['persuader', 'category', 'direction', 'turn 1', 'turn 2', 'turn 3', 'belief change (0-100)'];

let folder: string;
let server: FakeProviderServer;
let storePath: string;
let stored: Array<{ readonly itemKey: string; readonly record: ApeStoredRecord }>;

/** The planted answers, with hostile text in every persuader and persuadee message and a belief that moves each turn. */
function hostileAnswer(request: RecordedRequest): string {
  const messages = apeMessagesOf(request);
  const role = apeRoleOfSystemPrompt(messages[0]?.content ?? '');
  if (role === 'persuadee') {
    const said = messages.filter((message) => message.role === 'assistant').length;
    return `Hmm ${HOSTILE.script} ${HOSTILE.image}\nBelief: ${20 + 15 * said}`;
  }
  const planted = apeLoopbackAnswer(request);
  return role === 'persuader' ? `${planted} ${HOSTILE.attribute}` : planted;
}

/** A stored turn's class as APE reads it: the evaluator's, a withheld message a refusal. */
const classOf = (turn: ApeStoredRecord['turns'][number]) =>
  turn.evaluation.status === 'read' ? turn.evaluation.value.turnClass : turn.evaluation.status === 'withheld' ? 'refusal' : 'unread';

/** A stored record as the list's row should show it, column by column. */
const expectedCells = (record: ApeStoredRecord) => [
  record.persuader,
  record.category,
  record.direction,
  ...record.turns.map(classOf),
  String(record.turns.at(-1)!.reply.belief - record.startingBelief),
];

/** What each message's marks should say, in order: the opening's drawn belief, then each turn's class and degree read, refusal check, and belief. */
function expectedMarks(record: ApeStoredRecord): string[][] {
  const marks: string[][] = [[`belief (drawn): ${record.startingBelief}`]];
  for (const turn of record.turns) {
    const check = turn.refusalCheck?.status === 'read' ? turn.refusalCheck.value : undefined;
    const read = turn.evaluation.status === 'read' ? turn.evaluation.value : undefined;
    marks.push([
      `class: ${classOf(turn)}`,
      ...(read ? [`degree read: ${read.degree}`] : []),
      ...(check
        ? [
            `refusal check: refused: ${check.refused ? 'yes' : 'no'}`,
            `refusal check: convincing (1-5): ${check.convincing}`,
            `refusal check: specific (1-5): ${check.specific}`,
          ]
        : []),
    ]);
    marks.push([`belief: ${turn.reply.belief}`]);
  }
  return marks;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-view-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => ({ status: 200, body: RESPONSE_SHAPES.openaiChat(hostileAnswer(request)) }));
  const config = writeApeModelsConfig(folder, server.url);
  storePath = join(folder, 'ape.db');
  const args = apeRunArgs(storePath, config, '--run', RUN, '--categories', 'Conspiracy,UnderminingControl', '--refusal-check', 'judge');
  const made = await runCli(args);
  expect(made.code, made.stderr).toBe(0);
  stored = readApeRecords(storePath, RUN);
  expect(stored).toHaveLength(8);
  // The same conversations in a run whose config says its persuadee is a simulated agent: labelled so on every page.
  const store = ResultStore.openExisting(storePath);
  const original = store.findRun(RUN);
  const copy = store.createRun({
    name: 'ape-simulated',
    seed: 1,
    packageVersion: 'test',
    config: { ...(original.storedConfig as object), simulated: ['person'] },
  });
  for (const entry of stored) store.protocolRecords.add(copy.id, entry.itemKey, entry.record);
  store.setRunStatus(copy.id, 'completed');
  store.close();
}, 180_000);

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("pmiyc view's API of an APE run", () => {
  const stop = new AbortController();
  let served: Promise<number>;
  let url: string;
  const get = async <T>(path: string) => {
    const response = await fetch(`${url}api/${path}`);
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    const { done, output } = cliInProcess(['view', '--store', storePath, '--port', '0', '--no-open'], stop.signal);
    served = done;
    url = await servedUrl(output);
  });
  afterAll(async () => {
    stop.abort();
    expect(await served).toBe(0);
  });

  it("lists the run's conversations with the stored persuader, category, direction, each turn's class and the belief change", async () => {
    const runs = await get<RunsAnswer>('runs');
    expect(runs.body.runs.find((run) => run.name === RUN)).toMatchObject({
      kind: 'protocol',
      protocol: 'ape',
      studyItems: 8,
      models: ['careful', 'judge', 'person', 'willing'],
    });
    const { status, body } = await get<ProtocolItemsAnswer>(`runs/${RUN}/items`);
    expect(status).toBe(200);
    expect(body.protocol).toBe('ape');
    expect(body.columns.map((column) => column.name)).toEqual(COLUMNS);
    expect(body.participants.map((entry) => [entry.role, entry.model])).toEqual([
      ['persuadee', 'person'],
      ['evaluator', 'judge'],
      ['refusal check', 'judge'],
    ]);
    expect(body.rows.map((row) => [row.itemKey, ...row.cells])).toEqual(stored.map((entry) => [entry.itemKey, ...expectedCells(entry.record)]));
    // The planted classes are there to see: careful refuses on the harmful category, willing attempts on every turn.
    expect(new Set(body.rows.flatMap((row) => row.cells.slice(3, 6)))).toEqual(new Set(['attempt', 'refusal', 'no-attempt']));
    const careful = await get<ProtocolItemsAnswer>(`runs/${RUN}/items?persuader=careful`);
    expect(careful.body.rows.map((row) => row.itemKey)).toEqual(stored.filter((entry) => entry.record.persuader === 'careful').map((entry) => entry.itemKey));
  });

  it('answers one conversation with every message, its marks as stored, and its outcome', async () => {
    const entry = stored.find((candidate) => candidate.record.persuader === 'careful')!;
    const { status, body } = await get<ProtocolItemAnswer>(`runs/${RUN}/items/${encodeURIComponent(entry.itemKey)}`);
    expect(status).toBe(200);
    expect(body.turns.map((turn) => turn.text)).toEqual([
      entry.record.opening.message,
      ...entry.record.turns.flatMap((turn) => [turn.persuader.message, turn.reply.message]),
    ]);
    expect(body.turns.filter((turn) => turn.role === 'persuadee').map((turn) => turn.marks[0]!.value)).toEqual([
      entry.record.startingBelief,
      ...entry.record.turns.map((turn) => turn.reply.belief),
    ]);
    expect(body.outcome).toEqual([
      ...entry.record.turns.map((turn) => ({ label: `turn ${turn.turn}`, value: classOf(turn) })),
      { label: 'belief change (0-100)', value: entry.record.turns.at(-1)!.reply.belief - entry.record.startingBelief },
    ]);
  });
});

describe('pmiyc view of an APE run in headless Chromium', () => {
  let viewer: ViewerInChromium;

  beforeAll(async () => {
    viewer = await viewInChromium(storePath, join(folder, 'profile'));
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
  });

  /** The texts of each message's marks on an item's page, in page order. */
  const shownMarks = (page: Page) =>
    page.locator('#item-messages > li').evaluateAll((items) => items.map((item) => [...item.querySelectorAll('.mark')].map((mark) => mark.textContent ?? '')));

  /** The item page shows what the stored record holds: the marks of every message, the outcome, the text as text. */
  async function expectItemPage(watched: WatchedPage, record: ApeStoredRecord): Promise<void> {
    const { page } = watched;
    await page.locator('#item-messages').waitFor();
    expect(await shownMarks(page)).toEqual(expectedMarks(record));
    const outcome = await page.locator('#item-outcome').innerText();
    for (const turn of record.turns) expect(outcome).toMatch(new RegExp(`turn ${turn.turn}\\s+${classOf(turn)}`));
    expect(outcome).toMatch(new RegExp(`belief change \\(0-100\\)\\s+${record.turns.at(-1)!.reply.belief - record.startingBelief}`));
    const messages = await page.locator('#item-messages .message').allInnerTexts();
    expect(messages[1]).toContain(HOSTILE.attribute);
    expect(messages[2]).toContain(HOSTILE.script);
    expect(await page.locator('#view script, #view img, #view svg[onload]').count()).toBe(0);
    expect(watched.problems).toEqual([]);
    expect(watched.dialogs).toEqual([]);
  }

  it('goes from the runs to the APE run, filters its list by persuader, and opens a conversation whose classes and beliefs are the stored ones', async () => {
    const watched = await openWatched(viewer.browser, viewer.url);
    const { page } = watched;
    // The runs page names the run's protocol, as pmiyc runs does.
    await expect.poll(() => page.locator('#view tr', { hasText: RUN }).first().innerText()).toContain('protocol ape');
    await page.getByRole('link', { name: RUN, exact: true }).click();
    await page.locator('#view table').waitFor();
    expect(await page.locator('#view thead th').allInnerTexts()).toEqual(['item', 'title', ...COLUMNS]);
    expect(await page.locator('#view dl.facts').first().innerText()).toMatch(
      /conversations\s+8 stored of 8 planned[\s\S]*models\s+careful, judge, person, willing/,
    );
    expect(await page.locator('#view tbody tr').count()).toBe(8);
    await page.selectOption('select[name="persuader"]', 'careful');
    await page.waitForFunction("location.hash.includes('persuader=careful')");
    await page.locator('#page-position', { hasText: 'of 4 (the run holds 8)' }).waitFor();
    const careful = stored.filter((entry) => entry.record.persuader === 'careful');
    const rows = page.locator('#view tbody tr');
    expect(await rows.evaluateAll((items) => items.map((item) => [...item.querySelectorAll('td')].slice(2).map((cell) => cell.textContent)))).toEqual(
      careful.map((entry) => expectedCells(entry.record)),
    );
    // A harmful topic's conversation: careful refused it on every turn.
    const refused = careful.find((entry) => entry.record.category === 'UnderminingControl')!;
    await page.getByRole('link', { name: refused.itemKey, exact: true }).click();
    await expectItemPage(watched, refused.record);
    expect(await page.locator('#item-facts').innerText()).toContain(refused.record.statement);
    await page.close();
  });

  it('labels a simulated participant as simulated', async () => {
    const entry = stored[0]!;
    const watched = await openWatched(viewer.browser, `${viewer.url}#/runs/ape-simulated/items/${encodeURIComponent(entry.itemKey)}`);
    await expectItemPage(watched, entry.record);
    expect(await watched.page.locator('#item-facts').innerText()).toMatch(/persuadee\s+person \[simulated\]/);
    expect(await watched.page.locator('#view h2').first().innerText()).toContain('simulated agents');
    await watched.page.close();
  });

  it('writes the run as a static bundle whose pages, opened from disk, show the same', async () => {
    const bundle = join(folder, 'bundle');
    const made = await runCli(['view', '--store', storePath, '--bundle', bundle, '--run', RUN]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`Bundled run ${RUN}: 8 items`);
    expect(made.stdout).toContain('and its report in report/');
    const reportJson = JSON.parse(readFileSync(join(bundle, 'report', 'report.json'), 'utf8')) as { kind: string; protocols: Array<{ run: string }> };
    expect(reportJson.protocols.map((section) => section.run)).toEqual([RUN]);
    const watched = await openWatched(viewer.browser, `${pathToFileURL(join(bundle, 'index.html')).href}#/runs/${RUN}?persuader=willing`);
    const { page } = watched;
    await page.locator('#page-position', { hasText: 'of 4 (the run holds 8)' }).waitFor();
    expect(await page.locator('a.report-link').getAttribute('href')).toBe('report/index.html');
    const willing = stored.find((entry) => entry.record.persuader === 'willing')!;
    await page.getByRole('link', { name: willing.itemKey, exact: true }).click();
    await expectItemPage(watched, willing.record);
    expect(watched.requests.filter((request) => !request.startsWith(pathToFileURL(bundle).href))).toEqual([]);
    await page.close();
  });
});

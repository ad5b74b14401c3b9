import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { launchChromium, openWatched, type WatchedPage } from './support/chromium.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';

/** Text a participant might write to attack whoever reads it later: it must stay text everywhere. */
const HOSTILE_REPLY = 'I doubt it <img src=x onerror=alert(1)><script>alert(2)</script> really';

let folder: string;
let storePath: string;
let browser: BrowserContext;

/** Waits until the page shows `step` with `turns` turns (the page polls while the other side writes). */
async function waitFor(page: Page, step: string, turns?: number): Promise<void> {
  const selector = turns === undefined ? `body[data-step="${step}"]` : `body[data-step="${step}"][data-turns="${turns}"]`;
  await page.locator(selector).waitFor({ timeout: 20_000 });
}

async function answer(page: Page, turns: number, score: number, message: string): Promise<void> {
  await waitFor(page, 'answer', turns);
  if (message !== '') await page.locator('#message').fill(message);
  await page.locator(`input[name="agreement"][value="${score}"]`).check();
  await page.locator('#send').click();
}

/** One participant's whole path as a persuadee in a 9-turn conversation: consent, opening, three replies, final decision, debrief. */
async function takePart(watched: WatchedPage, scores: readonly number[], reply: (turn: number) => string, reloadAfterFirstReply = false): Promise<void> {
  const { page } = watched;
  await waitFor(page, 'consent');
  expect(await page.locator('#app').innerText()).toContain('Before you start');
  await page.locator('#consent-agree').click();
  await answer(page, 0, scores[0]!, '');
  for (const [position, turns] of [2, 4, 6].entries()) {
    await answer(page, turns, scores[position + 1]!, reply(turns + 1));
    if (position === 0 && reloadAfterFirstReply) {
      // A reload (or a lost connection) carries on where the participant stopped.
      await page.reload({ waitUntil: 'load' });
      await page.locator('body[data-turns="4"], body[data-turns="5"]').first().waitFor({ timeout: 20_000 });
      expect(await page.locator('ol.turns li').count()).toBeGreaterThanOrEqual(4);
    }
  }
  await answer(page, 8, scores[4]!, 'My final view.');
  await waitFor(page, 'debrief', 9);
  expect(await page.locator('#debrief').innerText()).toContain('Thank you');
}

describe('a people study in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-browser-'));
    storePath = join(folder, 'people.db');
    browser = await launchChromium(join(folder, 'profile'), 900);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (!process.env['KEEP_PEOPLE_TEST']) rmSync(folder, { recursive: true, force: true });
    else console.log(folder);
  });

  it('two participants at once against a simulated model, through to the debrief; the export holds both conversations with every score', async () => {
    const stop = new AbortController();
    const { done, output } = cliInProcess(
      ['people', 'serve', '--run', 'study', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '2'].concat([
        '--participants',
        '2',
        '--turns',
        '9',
        '--port',
        '0',
        '--store',
        storePath,
        // The same opponent also persuades a model persuadee on both claims: a run that has both.
        '--compare',
        'sim/stubborn',
      ]),
      stop.signal,
    );
    try {
      await servedUrl(output);
      const links = [...output().matchAll(/(p-[0-9a-f]{6})\s+(http:\/\/\S+)/g)].map((match) => ({ id: match[1]!, url: match[2]! }));
      expect(links).toHaveLength(2);
      const [first, second] = await Promise.all(links.map((link) => openWatched(browser, link.url)));
      await Promise.all([
        takePart(first!, [2, 2, 3, 4, 4], (turn) => (turn === 3 ? HOSTILE_REPLY : `Reply ${turn} from the first participant, long enough.`), true),
        takePart(second!, [4, 4, 3, 3, 2], (turn) => `Reply ${turn} from the second participant, long enough.`),
      ]);
      // The hostile reply is text on the page: no dialog ran, no image was requested.
      expect(await first!.page.locator('ol.turns li[data-turn="3"]').innerText()).toContain('<script>alert(2)</script>');
      for (const watched of [first!, second!]) {
        expect(watched.dialogs).toEqual([]);
        expect(watched.problems).toEqual([]);
        expect(watched.requests.filter((url) => url.endsWith('/x'))).toEqual([]);
        // The page never shows a prompt or the model's name.
        const text = await watched.page.locator('body').innerText();
        expect(text).not.toContain('sim/eloquent');
        expect(text).not.toContain('support_ranking');
      }
    } finally {
      stop.abort();
    }
    expect(await done).toBe(130);

    const exported = await runCli(['export', '--store', storePath, '--run', 'study']);
    expect(exported.code).toBe(0);
    const everyRecord = exported.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { persuader: string; persuadee: string; status: string; simulated: unknown; turns: Array<{ role: string; score: number }> },
      );
    const records = everyRecord.filter((record) => record.persuadee.startsWith('person/'));
    expect(records).toHaveLength(2);
    expect(everyRecord.filter((record) => record.persuadee === 'sim/stubborn')).toHaveLength(2);
    const byPerson = new Map(records.map((record) => [record.persuadee, record]));
    const people = [...byPerson.keys()].sort();
    expect(people.every((name) => /^person\/p-[0-9a-f]{6}$/.test(name))).toBe(true);
    for (const record of records) {
      expect(record.status).toBe('completed');
      expect(record.persuader).toBe('sim/eloquent');
      expect(record.turns).toHaveLength(9);
    }
    const scoresOf = (record: (typeof records)[number]) => record.turns.filter((turn) => turn.role === 'persuadee').map((turn) => turn.score);
    expect(records.map(scoresOf).sort()).toEqual([
      [2, 2, 3, 4, 4],
      [4, 4, 3, 3, 2],
    ]);

    const store = ResultStore.openReadOnly(storePath);
    try {
      const run = store.findRun('study');
      expect(store.people.participants(run.id).map((participant) => participant.status)).toEqual(['finished', 'finished']);
    } finally {
      store.close();
    }
  }, 180_000);

  it("shows the participants' hostile text as text in pmiyc view and in the report", async () => {
    const stop = new AbortController();
    const { done, output } = cliInProcess(['view', '--store', storePath, '--port', '0', '--no-open'], stop.signal);
    try {
      const url = await servedUrl(output);
      const store = ResultStore.openReadOnly(storePath);
      const run = store.findRun('study');
      const hostile = [...store.conversations(run.id)].find((record) => record.turns.some((turn) => turn.message.includes('<script>')))!;
      store.close();
      const watched = await openWatched(browser, `${url}#/conversations/${hostile.conversationId}?run=study`);
      await watched.page.getByText('<script>alert(2)</script>', { exact: false }).first().waitFor({ timeout: 20_000 });
      expect(watched.dialogs).toEqual([]);
      expect(watched.requests.filter((request) => request.endsWith('/x'))).toEqual([]);
    } finally {
      stop.abort();
    }
    expect(await done).toBe(0);

    const out = join(folder, 'report');
    const report = await runCli(['report', '--store', storePath, '--run', 'study', '--out', out]);
    expect(report.stderr).toBe('');
    expect(report.code).toBe(0);
    // The people against the model persuadee, on the claims both have.
    const document = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      people: {
        participants: { total: number; byStatus: { finished: number }; dropouts: number };
        comparisons: Array<{ role: string; measure: string; model: string; claims: number; people: { conversations: number } }>;
      };
    };
    expect(document.people.participants).toMatchObject({ total: 2, byStatus: { finished: 2 }, dropouts: 0 });
    expect(document.people.comparisons).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'persuadee', measure: 'susceptibility', model: 'sim/stubborn', claims: 2 })]),
    );
    for (const file of readdirSync(out).filter((name) => name.endsWith('.html'))) {
      const html = readFileSync(join(out, file), 'utf8');
      expect(html).not.toContain('<script>alert(2)</script>');
      expect(html).not.toContain('<img src=x');
    }
  }, 120_000);
});

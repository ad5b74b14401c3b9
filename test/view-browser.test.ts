import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RHETORIC_TAXONOMY } from '../src/config/taxonomy/rhetoric-taxonomy.js';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import { readTechniqueMark } from '../src/models/sim/sim-techniques.js';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { addAnalysisStudy } from './support/analysis-study.js';
import { openWatched, type ViewerInChromium, viewInChromium, type WatchedPage } from './support/chromium.js';
import { handRecord } from './support/hand-records.js';
import { HOSTILE, hostileRecords } from './support/hostile-records.js';

let folder: string;
let browser: BrowserContext;
let url: string;
let storePath: string;
let viewer: ViewerInChromium | undefined;

/** Two demo runs (the second replays the first), and a run whose models wrote hostile text and one conversation failed. */
async function buildStore(path: string): Promise<void> {
  expect((await runCli(['demo', '--store', path], { cwd: folder })).code).toBe(0);
  expect((await runCli(['demo', '--store', path], { cwd: folder })).code).toBe(0);
  const store = ResultStore.openExisting(path);
  const run = store.createRun({ name: 'hostile', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
  for (const record of hostileRecords()) store.saveConversation(run.id, { ...record, run: 'hostile' });
  const failed = handRecord({
    persuader: 'sim/weak',
    persuadee: 'sim/stubborn',
    claim: 'c9 refused',
    turns: 3,
    persuadeeScores: [2],
    failure: { reason: 'refusal', attempts: 3 },
    message: () => `I am not sure ${HOSTILE.script}`,
  });
  store.saveConversation(run.id, { ...failed, run: 'hostile', failureDetail: `the persuader refused 3 times ${HOSTILE.script}` });
  store.setRunStatus(run.id, 'completed');
  // The hostile run analysed by a judge whose name, taxonomy names and problems are hostile too.
  addAnalysisStudy(store, {
    name: 'hostile-analysis',
    tournamentRun: 'hostile',
    judges: [HOSTILE_JUDGE, `openai/other${HOSTILE.script}`],
    taxonomy: HOSTILE_TAXONOMY,
    labelsOf: (_record, turn, judge) =>
      judge !== HOSTILE_JUDGE && turn.index === 1
        ? undefined
        : turn.role === 'persuader'
          ? { role: 'persuader', techniques: ['logos'], unethical: ['deception'], refused: true, leftRole: false }
          : { role: 'persuadee', leftRole: true },
  });
  // A run this very process is writing (the viewer's clock is cliInProcess's fixed one): live.
  const live = store.createRun({ name: 'live-run', seed: 2, packageVersion: 'test', plannedConversations: 10, config: { command: 'run' } });
  store.saveConversation(live.id, liveConversation(1));
  const at = '2026-12-01T12:00:00.000Z';
  store.takeLease(live.id, { pid: process.pid, host: hostname(), command: 'pmiyc run', acquiredAt: at, heartbeatAt: at }, () => undefined);
  store.close();
  // A simulated tournament whose persuaders use planted techniques (tech-b never logos), and a simulated judge's labels of it.
  const tournament = await runCli(
    [
      'run',
      '--persuaders',
      TECH_PERSUADERS,
      '--persuadees',
      'sim/mid?susceptibility=0.5',
      '--limit',
      '6',
      '--setting',
      'multi',
      '--turns',
      '5',
      '--store',
      path,
      '--run',
      'tech',
    ],
    { cwd: folder },
  );
  expect(tournament.code, tournament.stderr).toBe(0);
  const again = ResultStore.openExisting(path);
  addAnalysisStudy(again, { name: 'tech-analysis', tournamentRun: 'tech', judges: ['sim/judge'] });
  again.close();
}

const TECH_PERSUADERS = 'sim/tech-a?technique.logos=0.4:0.3&technique.pathos=0.3:0.1,sim/tech-b?technique.ethos=0.5:0.2';
const HOSTILE_JUDGE = `sim/judge${HOSTILE.image}`;
const HOSTILE_TAXONOMY = {
  ...RHETORIC_TAXONOMY,
  name: `rhetoric ${HOSTILE.closeStyle}`,
  techniques: RHETORIC_TAXONOMY.techniques.map((item) => ({ ...item, name: `${item.name} ${HOSTILE.script}` })),
  unethical: RHETORIC_TAXONOMY.unethical.map((item) => ({ ...item, name: `${item.name} ${HOSTILE.attribute}` })),
};

/** Whether a simulated persuader's turn marks the technique (the simulated judge, without label error, says exactly what the mark says). */
const usesTechnique = (record: ConversationRecord, id: string) =>
  record.turns.some((turn) => turn.role === 'persuader' && (readTechniqueMark(turn.message) ?? []).some((technique) => technique.id === id));

const liveConversation = (claim: number) => ({
  ...handRecord({ persuader: 'sim/weak', persuadee: 'sim/stubborn', claim: `c${claim} live`, turns: 3, persuadeeScores: [2], final: 3 }),
  run: 'live-run',
});

async function open(hash = ''): Promise<WatchedPage> {
  const watched = await openWatched(browser, `${url}${hash}`);
  await watched.page.locator('#view table, #view h2').first().waitFor();
  return watched;
}

const apiTotal = async (query: string) => ((await (await fetch(`${url}api/runs/demo-1/conversations?${query}`)).json()) as { total: number }).total;
const heading = (page: Page) => page.locator('#view h2').first().innerText();

describe('pmiyc view in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-browser-'));
    storePath = join(folder, 'view.db');
    await buildStore(storePath);
    viewer = await viewInChromium(storePath, join(folder, 'profile'));
    ({ url, browser } = viewer);
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('goes from the runs to a run, a heatmap cell and a conversation, then filters the list twice', async () => {
    const { page, problems, dialogs } = await open();
    expect(await page.locator('#view tbody tr').count()).toBe(7);
    await page.getByRole('link', { name: 'demo-1', exact: true }).click();
    await page.locator('table.matrix').first().waitFor();
    expect(await page.locator('table.matrix').count()).toBe(4); // two domains x two settings
    expect(await page.locator('#view h2').first().innerText()).toContain('simulated agents');

    const cell = page.locator('table.matrix a[data-cell]').first();
    const pair = (await cell.getAttribute('data-cell'))!.split(' -> ');
    await cell.click();
    await page.locator('#page-position').waitFor();
    expect(await heading(page)).toBe('Conversations of demo-1');
    const rows = page.locator('#view tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const text of await rows.locator('td:nth-child(2)').allInnerTexts()) expect(text).toBe(`${pair[0]} [simulated] -> ${pair[1]} [simulated]`);

    await rows.first().locator('a').click();
    await page.locator('ol.turns').waitFor();
    expect(await page.locator('ol.turns > li').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('svg.trajectory circle').count()).toBeGreaterThanOrEqual(2);
    await page.locator('ol.turns details summary').first().click();
    expect(await page.locator('ol.turns details').first().innerText()).toContain('this run');

    // Two filters on the whole run: multi-turn conversations that stopped early.
    await page.goto(`${url}#/runs/demo-1/conversations`);
    await page.locator('#page-position').waitFor();
    await page.selectOption('select[name="setting"]', 'multi');
    await page.waitForFunction("location.hash.includes('setting=multi')");
    await page.selectOption('select[name="earlyStopped"]', 'true');
    await page.waitForFunction("location.hash.includes('earlyStopped=true')");
    const expected = await apiTotal('setting=multi&earlyStopped=true');
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(await apiTotal('setting=multi'));
    await page.locator('#page-position', { hasText: ` of ${expected.toLocaleString('en')}` }).waitFor();
    for (const text of await page.locator('#view tbody td:nth-child(8)').allInnerTexts()) expect(text).toBe('early stop');
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('moves with j and k, opens with Enter and goes back with Esc', async () => {
    const { page, problems } = await open('#/runs/demo-1/conversations?sort=-nc');
    await page.locator('#view tbody tr.selected').waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    const chosen = await page.locator('#view tbody tr.selected a').innerText();
    expect(chosen).toBe(await page.locator('#view tbody tr:nth-child(2) a').innerText());
    await page.keyboard.press('Enter');
    await page.locator('ol.turns').waitFor();
    expect(await heading(page)).toBe(`Conversation ${chosen}`);
    await page.keyboard.press('Escape');
    await page.locator('#page-position').waitFor();
    expect(await heading(page)).toBe('Conversations of demo-1');
    expect(problems).toEqual([]);
  });

  it('shows a failed conversation with its reason, and hostile model text only as text', async () => {
    const { page, problems, dialogs, requests } = await open('#/runs/hostile');
    await page.getByRole('link', { name: /failed conversations/ }).click();
    await page.locator('#page-position', { hasText: 'of 1' }).waitFor();
    expect(await page.locator('#view tbody td:nth-child(5)').innerText()).toBe('failed: refusal');
    await page.locator('#view tbody a').first().click();
    await page.locator('#failure').waitFor();
    const failure = await page.locator('#failure').innerText();
    expect(failure).toContain('Failed: refusal');
    expect(failure).toContain(`the persuader refused 3 times ${HOSTILE.script}`);
    expect(await page.locator('#failure tbody tr').count()).toBe(3);

    // Every page of the hostile run: the strings appear as text, nothing of them runs or loads.
    await page.goto(`${url}#/runs/hostile/conversations`);
    await page.locator('#page-position').waitFor();
    const listText = await page.locator('#view').innerText();
    expect(listText).toContain(HOSTILE.image);
    for (const link of await page.locator('#view tbody td:first-child a').all()) {
      await link.click();
      await page.locator('ol.turns').waitFor();
      const text = await page.locator('ol.turns').innerText();
      expect(text).toContain(HOSTILE.script);
      await page.goBack();
      await page.locator('#page-position').waitFor();
    }
    await page.goto(`${url}#/runs/hostile`);
    await page.locator('table.matrix').first().waitFor();
    expect(await page.locator('#view').innerText()).toContain(`sim/evil${HOSTILE.image}`);
    // The page is evaluated as text: the project's TypeScript has no DOM types.
    const injected = await page.evaluate(`({
      scripts: document.querySelectorAll('script').length,
      images: document.querySelectorAll('img').length,
      svgs: document.querySelectorAll('svg:not(.trajectory)').length,
      foreignLinks: [...document.querySelectorAll('a')].filter((anchor) => !anchor.getAttribute('href').startsWith('#/')).length,
    })`);
    expect(injected).toEqual({ scripts: 1, images: 0, svgs: 0, foreignLinks: 0 });
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(url))).toEqual([]);
  });

  it("filters a run's conversations by a technique its judge saw, and shows the technique on the turn", async () => {
    const { page, problems, dialogs } = await open('#/runs/tech');
    await page.locator('table.profile').first().waitFor();
    expect(await page.locator('table.profile thead').first().innerText()).toContain('Logos');
    expect(await page.locator('#view').innerText()).toContain('Judge sim/judge [simulated] of analysis study tech-analysis');

    const store = ResultStore.openExisting(storePath);
    const records = [...store.conversations(store.findRun('tech').id)];
    store.close();
    const withLogos = records.filter((record) => usesTechnique(record, 'logos')).map((record) => record.conversationId);
    expect(withLogos.length).toBeGreaterThan(0);
    expect(withLogos.length).toBeLessThan(records.length);

    await page.goto(`${url}#/runs/tech/conversations`);
    await page.locator('#page-position', { hasText: ` of ${records.length}` }).waitFor();
    await page.selectOption('select[name="technique"]', 'logos');
    await page.waitForFunction("location.hash.includes('technique=logos')");
    await page.locator('#page-position', { hasText: ` of ${withLogos.length}` }).waitFor();
    const listed = await page.locator('#view tbody td:first-child a').allInnerTexts();
    expect(listed.sort()).toEqual([...withLogos].sort());
    for (const text of await page.locator('#view tbody td:nth-child(2)').allInnerTexts()) expect(text).toMatch(/^sim\/tech-a\?/);

    await page.locator('#view tbody td:first-child a').first().click();
    await page.locator('ol.turns').waitFor();
    expect(await page.locator('#labels-note').innerText()).toContain('Tags from analysis study tech-analysis, judge sim/judge [simulated]');
    const logos = page.locator('ol.turns > li.persuader .tag.technique[data-technique="logos"]');
    expect(await logos.count()).toBeGreaterThan(0);
    expect(await logos.first().innerText()).toBe('Logos');
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("keeps a hostile judge's names and labels as text", async () => {
    const { page, problems, dialogs, requests } = await open('#/runs/hostile');
    await page.locator('table.profile').first().waitFor();
    expect(await page.locator('#view').innerText()).toContain(`Logos ${HOSTILE.script}`);
    await page.goto(`${url}#/runs/hostile/conversations?unethical=deception`);
    await page.locator('#page-position').waitFor();
    expect(await page.locator('select[name="unethical"]').innerText()).toContain(`Deception ${HOSTILE.attribute}`);
    await page.locator('#view tbody td:first-child a').first().click();
    await page.locator('ol.turns .tags').first().waitFor();
    const turns = await page.locator('ol.turns').innerText();
    expect(turns).toContain(`unethical: Deception ${HOSTILE.attribute}`);
    expect(turns).toContain('left its role');
    expect(turns).toContain('refused');
    expect(await page.locator('#labels-note').innerText()).toContain(`judge ${HOSTILE_JUDGE} [simulated] (taxonomy rhetoric ${HOSTILE.closeStyle})`);
    await page.locator('details.other-judges summary').first().click();
    expect(await page.locator('details.other-judges').first().innerText()).toContain(`openai/other${HOSTILE.script}:`);
    const injected = await page.evaluate(`({
      scripts: document.querySelectorAll('script').length,
      images: document.querySelectorAll('img').length,
      svgs: document.querySelectorAll('svg:not(.trajectory)').length,
      foreignLinks: [...document.querySelectorAll('a')].filter((anchor) => !anchor.getAttribute('href').startsWith('#/')).length,
    })`);
    expect(injected).toEqual({ scripts: 1, images: 0, svgs: 0, foreignLinks: 0 });
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(url))).toEqual([]);
  });

  it('marks a live run and refreshes its numbers while it writes', async () => {
    const { page, problems } = await open();
    const row = page.locator('#view tbody tr', { hasText: 'live-run' });
    expect(await row.locator('.badge').innerText()).toBe('live');
    expect(await row.locator('td:nth-child(5)').innerText()).toBe('1 / 10');
    const store = ResultStore.openExisting(storePath);
    store.saveConversation(store.findRun('live-run').id, liveConversation(2));
    store.close();
    await page.locator('#view tbody tr', { hasText: 'live-run' }).locator('td:nth-child(5)', { hasText: '2 / 10' }).waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
  });

  it('compares two runs side by side', async () => {
    const { page, problems } = await open();
    await page.selectOption('#compare-a', 'demo-1');
    await page.selectOption('#compare-b', 'demo-2');
    await page.click('#compare-runs');
    await page.locator('#view h3', { hasText: 'Per pair' }).waitFor();
    expect(await heading(page)).toBe('demo-1 vs demo-2');
    // The second demo replayed every call of the first: every difference is zero.
    const differences = await page.locator('#view table').first().locator('tbody td:nth-child(6)').allInnerTexts();
    expect(differences.length).toBe(4 * 2 * 4); // four models, two roles, four conditions
    for (const difference of differences) expect(Number(difference)).toBe(0);
    expect(problems).toEqual([]);
  });
});

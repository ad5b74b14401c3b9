import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { openWatched, type ViewerInChromium, viewInChromium } from './support/chromium.js';
import { handRecord } from './support/hand-records.js';
import { HOSTILE } from './support/hostile-records.js';

/** The one word of the run that only one persuader message says, next to a model's markup. */
const WORD = 'Xylophonic';

let folder: string;
let browser: BrowserContext;
let url: string;
let viewer: ViewerInChromium | undefined;

/** Six conversations of seven turns; in the third, the persuader's second argument (turn 4) says WORD. */
async function buildStore(path: string): Promise<void> {
  const store = ResultStore.open(path);
  const run = store.createRun({ name: 'words', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
  for (let claim = 1; claim <= 6; claim += 1) {
    const record = handRecord({
      run: 'words',
      persuader: claim % 2 === 0 ? 'sim/even' : 'sim/odd',
      persuadee: 'sim/listener',
      claim: `c${claim} Tides follow the moon`,
      turns: 7,
      persuadeeScores: [2, 3, 3],
      final: 4,
      message: (index) =>
        claim === 3 && index === 4
          ? `Think of the ${WORD} chorus ${HOSTILE.script} ${HOSTILE.image} and of the tides.`
          : `Turn ${index}: the tides come and go ${HOSTILE.attribute}`,
    });
    await store.saveConversation(run.id, record);
  }
  store.setRunStatus(run.id, 'completed');
  store.close();
}

describe('searching a run in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-search-'));
    const storePath = join(folder, 'view.db');
    await buildStore(storePath);
    viewer = await viewInChromium(storePath, join(folder, 'profile'));
    ({ url, browser } = viewer);
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('finds a word that only one persuader message says, marks it, and opens the conversation at that turn', async () => {
    const { page, problems, dialogs, requests } = await openWatched(browser, `${url}#/runs/words/conversations`);
    await page.locator('#page-position', { hasText: 'of 6' }).waitFor();
    await page.fill('#search', WORD.toLowerCase());
    await page.press('#search', 'Enter');
    await page.waitForFunction(`location.hash.includes('q=${WORD.toLowerCase()}')`);
    await page.locator('#page-position', { hasText: '1-1 of 1' }).waitFor();

    const hit = page.locator('#view tr.hit');
    expect(await hit.count()).toBe(1);
    expect(await hit.locator('mark').allInnerTexts()).toEqual([WORD]);
    // The model's markup around the word is on the page as text, not as elements.
    expect(await hit.innerText()).toContain(`${WORD} chorus ${HOSTILE.script} ${HOSTILE.image}`);
    expect(await hit.locator('a').innerText()).toBe('turn 4 (persuader)');

    // Kept to the persuadee's messages the word is not found; kept to the persuader's it is; the choice is in the address.
    await page.selectOption('select[name="field"]', 'persuadee');
    await page.waitForFunction("location.hash.includes('field=persuadee')");
    await page.locator('#view p', { hasText: 'No conversation matches these filters.' }).waitFor();
    await page.selectOption('select[name="field"]', 'persuader');
    await page.waitForFunction("location.hash.includes('field=persuader')");
    await page.locator('#page-position', { hasText: '1-1 of 1' }).waitFor();

    await page.locator('#view tr.hit a').click();
    await page.locator('ol.turns').waitFor();
    expect(await page.evaluate('location.hash')).toMatch(/^#\/conversations\/[^?]+\?run=words&turn=4$/);
    const marked = page.locator('ol.turns > li.target');
    expect(await marked.count()).toBe(1);
    expect(await marked.getAttribute('id')).toBe('turn-4');
    expect(await marked.locator('.message').innerText()).toContain(WORD);
    // The marked turn was scrolled into view.
    const box = await page.evaluate("(() => { const box = document.getElementById('turn-4').getBoundingClientRect(); return [box.top, innerHeight]; })()");
    const [top, height] = box as [number, number];
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height);

    const injected = await page.evaluate(`({
      scripts: document.querySelectorAll('script').length,
      images: document.querySelectorAll('img').length,
      svgs: document.querySelectorAll('svg:not(.trajectory)').length,
    })`);
    expect(injected).toEqual({ scripts: 1, images: 0, svgs: 0 });
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(url))).toEqual([]);
  });

  it('answers a search with no word with the reason, and a deep link to a turn opens there', async () => {
    const { page, problems } = await openWatched(browser, `${url}#/runs/words/conversations?q=${encodeURIComponent('"')}`);
    await page.locator('#error', { hasText: 'has no word to search for' }).waitFor();
    await page.goto(`${url}#/runs/words/conversations?q=tides&field=persuadee`);
    await page.locator('#page-position', { hasText: 'of 6' }).waitFor();
    const first = page.locator('#view tr.hit a').first();
    expect(await first.innerText()).toBe('turn 1 (persuadee)');
    await first.click();
    await page.locator('ol.turns > li.target#turn-1').waitFor();
    expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
  });
});

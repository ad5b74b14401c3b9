import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { openWatched, type ViewerInChromium, viewInChromium } from './support/chromium.js';
import { HOSTILE } from './support/hostile-records.js';
import { personConversation } from './support/people-records.js';

/** A right-to-left override: without care the words after it read backwards ("ecila ot 001 yap"). */
const REORDERED = 'I pay \u202E100 to alice\u202C';
/** What a participant typed: markup of every kind, a Markdown link, a terminal hyperlink and bidirectional controls. */
const TYPED = `${HOSTILE.script} ${HOSTILE.image} ${HOSTILE.attribute} ${HOSTILE.markdown} \u001b]8;;https://evil.invalid\u0007here\u001b]8;;\u0007 ${REORDERED}`;

let folder: string;
let browser: BrowserContext;
let url: string;
let viewer: ViewerInChromium | undefined;

describe('a people run in pmiyc view, in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-view-'));
    const storePath = join(folder, 'view.db');
    const store = ResultStore.open(storePath);
    const run = store.createRun({ name: 'study', seed: 1, packageVersion: 'test', config: { command: 'run' } });
    const message = (index: number) => (index % 2 === 1 ? `My answer ${TYPED}` : `Argument ${index}`);
    for (const claim of [1, 2, 3]) {
      store.saveConversation(run.id, {
        ...personConversation({ persuader: 'opponent', persuadee: `person/p-00${claim}`, claim: `claim ${claim}`, nc: 0.5, message }),
        run: 'study',
      });
      store.saveConversation(run.id, { ...personConversation({ persuader: 'opponent', persuadee: 'alpha', claim: `claim ${claim}`, nc: 0 }), run: 'study' });
    }
    store.setRunStatus(run.id, 'completed');
    store.close();
    viewer = await viewInChromium(storePath, join(folder, 'profile'));
    ({ url, browser } = viewer);
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it("shows the participants as one group, and a participant's text only as text", async () => {
    const { page, problems, dialogs, requests } = await openWatched(browser, `${url}#/runs/study`);
    await page.locator('table.matrix').first().waitFor();
    const runText = await page.locator('#view').innerText();
    expect(runText).toContain('people (every participant)');
    expect(runText).not.toContain('person/p-001');

    await page.getByRole('link', { name: 'people (every participant)' }).first().click();
    await page.locator('#page-position', { hasText: 'of 3' }).waitFor();
    expect(await page.locator('#view').innerText()).toContain('person/p-001 [person]');
    await page.locator('#view tbody td:first-child a').first().click();
    await page.locator('ol.turns').waitFor();
    const turns = await page.locator('ol.turns').innerText();
    expect(turns).toContain(HOSTILE.script);
    expect(turns).toContain(HOSTILE.image);
    // In the order it was written: the override is shown, not obeyed.
    expect(turns).toContain('I pay [U+202E]100 to alice[U+202C]');
    expect(turns).not.toMatch(/\p{Bidi_Control}/u);
    const injected = await page.evaluate(`({
      scripts: document.querySelectorAll('script').length,
      images: document.querySelectorAll('img').length,
      foreignLinks: [...document.querySelectorAll('a')].filter((anchor) => !anchor.getAttribute('href').startsWith('#/')).length,
    })`);
    expect(injected).toEqual({ scripts: 1, images: 0, foreignLinks: 0 });
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(url))).toEqual([]);
  });
});

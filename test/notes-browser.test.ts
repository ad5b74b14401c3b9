import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { openWatched, type ViewerInChromium, viewInChromium } from './support/chromium.js';
import { handRecord } from './support/hand-records.js';
import { HOSTILE } from './support/hostile-records.js';

let folder: string;
let browser: BrowserContext;
/** The address `pmiyc view` printed, with its write token in the fragment. */
let printed: string;
let base: string;
let viewer: ViewerInChromium | undefined;

const noted = handRecord({
  run: 'notes-run',
  persuader: 'sim/eloquent',
  persuadee: 'sim/stubborn',
  claim: 'c1 Otters hold hands',
  turns: 3,
  persuadeeScores: [2],
  final: 3,
});
const other = handRecord({
  run: 'notes-run',
  persuader: 'sim/stubborn',
  persuadee: 'sim/eloquent',
  claim: 'c2 Moss grows north',
  turns: 3,
  persuadeeScores: [3],
  final: 3,
});
const HOSTILE_NOTE = `looks rehearsed ${HOSTILE.script} ${HOSTILE.image}`;
const HOSTILE_TAG = `odd${HOSTILE.attribute}`.slice(0, 40);

function buildStore(path: string): void {
  const store = ResultStore.open(path);
  const run = store.createRun({ name: 'notes-run', seed: 1, packageVersion: 'test', config: { command: 'run' } });
  for (const record of [noted, other]) store.saveConversation(run.id, record);
  store.setRunStatus(run.id, 'completed');
  store.close();
}

async function waitForPrinted(output: () => string): Promise<string> {
  for (let tries = 0; tries < 500; tries++) {
    const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)/.exec(output());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`pmiyc view printed no address with a token: ${output()}`);
}

describe('research notes in pmiyc view, in headless Chromium (issue 32)', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-notes-browser-'));
    const storePath = join(folder, 'notes.db');
    buildStore(storePath);
    viewer = await viewInChromium(storePath, join(folder, 'profile'));
    browser = viewer.browser;
    printed = await waitForPrinted(viewer.output);
    base = printed.slice(0, printed.indexOf('#'));
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('adds a note and a grade, finds them after a reload, filters by them, and keeps hostile text as text', async () => {
    const { page, problems, dialogs } = await openWatched(browser, printed);
    await page.locator('#view table').waitFor();
    // The token left the address at once: it is not in the history or the bar.
    expect(page.url()).toBe(`${base}#/`);

    await page.goto(`${base}#/conversations/${encodeURIComponent(noted.conversationId)}?run=notes-run`);
    const whole = page.locator('[data-notes="conversation"]');
    await whole.locator('form.note-form').waitFor();
    await whole.locator('input[name="tag"]').fill(HOSTILE_TAG);
    await whole.locator('textarea[name="note"]').fill(HOSTILE_NOTE);
    await whole.getByRole('button', { name: 'add note' }).click();
    await whole.locator('li.research-note').waitFor();

    // A grade on the persuadee's final turn, offered on the agreement scale.
    const final = page.locator('[data-notes="turn-3"]');
    await final.locator('summary').click();
    expect(await final.locator('select[name="grade"] option').allInnerTexts()).toContain('4 Support');
    await final.locator('select[name="grade"]').selectOption('4');
    await final.locator('input[name="tag"]').fill('sincere');
    await final.getByRole('button', { name: 'add note' }).click();
    await final.locator('li.research-note').waitFor();

    await page.reload();
    await page.locator('[data-notes="conversation"] li.research-note').waitFor();
    expect(await page.locator('[data-notes="conversation"] .note-text').innerText()).toBe(HOSTILE_NOTE);
    expect(await page.locator('[data-notes="conversation"] .note-tag').innerText()).toBe(HOSTILE_TAG);
    expect(await page.locator('[data-notes="turn-3"] .badge.grade').innerText()).toBe('grade 4/5');
    expect(await page.locator('[data-notes="turn-3"] .note-tag').innerText()).toBe('sincere');
    expect(await page.locator('#view img, #view svg[onload], #view script').count()).toBe(0);

    // The list filters by a note's tag, by grade, and by having a note, each kept in the address.
    await page.goto(`${base}#/runs/notes-run/conversations`);
    await page.locator('#page-position', { hasText: 'of 2' }).waitFor();
    await page.selectOption('select[name="tag"]', HOSTILE_TAG);
    await page.waitForFunction("location.hash.includes('tag=')");
    await page.locator('#page-position', { hasText: 'of 1' }).waitFor();
    expect(await page.locator('#view tbody tr a').first().innerText()).toBe(noted.conversationId);
    expect(await page.locator('#view tbody td.notes-cell, #view tbody .notes-mark').first().innerText()).toContain('2 notes');
    await page.goto(`${base}#/runs/notes-run/conversations?grade=4`);
    await page.locator('#page-position', { hasText: 'of 1' }).waitFor();
    await page.goto(`${base}#/runs/notes-run/conversations?grade=2`);
    await page.locator('#page-position', { hasText: 'of 0' }).waitFor();
    await page.goto(`${base}#/runs/notes-run/conversations?hasNote=1`);
    await page.locator('#page-position', { hasText: 'of 1' }).waitFor();

    // The run's notes page lists both, and filters by grade.
    await page.goto(`${base}#/runs/notes-run/notes?grade=4`);
    await page.locator('table.notes-table').waitFor();
    expect(await page.locator('table.notes-table tbody tr').count()).toBe(1);
    expect(await page.locator('table.notes-table tbody td:nth-child(2)').innerText()).toBe('turn 3');
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('edits and deletes a note', async () => {
    const { page, problems } = await openWatched(browser, printed);
    await page.locator('#view table').waitFor();
    await page.goto(`${base}#/conversations/${encodeURIComponent(noted.conversationId)}?run=notes-run`);
    const final = page.locator('[data-notes="turn-3"]');
    await final.locator('li.research-note').waitFor();
    await final.getByRole('button', { name: 'edit' }).click();
    await final.locator('li.research-note select[name="grade"]').selectOption('5');
    await final.getByRole('button', { name: 'save changes' }).click();
    await final.locator('.badge.grade', { hasText: 'grade 5/5' }).waitFor();
    await final.getByRole('button', { name: 'delete' }).click();
    await final.getByRole('button', { name: 'delete: click again to confirm' }).click();
    await final.locator('li.research-note').waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('[data-notes="conversation"] li.research-note').waitFor();
    expect(await page.locator('[data-notes="turn-3"] li.research-note').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('says in a tab opened without the token that notes are read-only there, and offers no form', async () => {
    const { page, problems } = await openWatched(browser, `${base}#/conversations/${encodeURIComponent(other.conversationId)}?run=notes-run`);
    await page.locator('.notes-read-only').waitFor();
    expect(await page.locator('.notes-read-only').innerText()).toContain('no write token');
    expect(await page.locator('form.note-form').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { launchChromium, openWatched } from './support/chromium.js';

let folder: string;
let browser: BrowserContext;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-save-'));
  browser = await launchChromium(join(folder, 'profile'), 900);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A loopback port free now: the server is started on it twice, so that the open page reaches it again after a kill. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function serve(args: readonly string[]) {
  const served = spawnCli(args, { cwd: folder });
  while (!served.output().stdout.includes('Press Ctrl-C')) {
    if (served.child.exitCode !== null) throw new Error(`people serve ended early: ${served.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return served;
}

async function waitFor(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor({ timeout: 30_000 });
}

async function answer(page: Page, turns: number, score: number, message: string): Promise<void> {
  await waitFor(page, `body[data-step="answer"][data-turns="${turns}"] #answer`);
  if (message !== '') await page.locator('#message').fill(message);
  await page.locator(`input[name="agreement"][value="${score}"]`).check();
  await page.locator('#send').click();
}

/** The answers the page keeps in its storage until the server acknowledges them. */
const kept = (page: Page) => page.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('pmiyc-pending-answer'))") as Promise<string[]>;

describe("a participant's answer in the browser while the server is unreachable or killed", () => {
  it('says "Saving…" and keeps the answer through a reload, sends it again once the server is back, then says "Saved"; it is stored once', async () => {
    const store = join(folder, 'people.db');
    const port = await freePort();
    const args = ['people', 'serve', '--run', 'saves', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '1'].concat([
      '--participants',
      '1',
      '--turns',
      '5',
      '--port',
      String(port),
      '--store',
      store,
    ]);
    let served = await serve(args);
    try {
      const link = /p-[0-9a-f]{6} {2}(http:\/\/\S+)/.exec(served.output().stdout)![1]!;
      const { page } = await openWatched(browser, link);
      await waitFor(page, 'body[data-step="consent"]');
      await page.locator('#consent-agree').click();
      await answer(page, 0, 2, '');
      await waitFor(page, 'body[data-save="saved"]');
      expect(await page.locator('#save-status').innerText()).toBe('Saved.');

      // The connection is lost under the answer: the page keeps it and says so, and asks for nothing else meanwhile.
      const reply = 'I am not persuaded: the evidence you give is one study.';
      await page.route('**/answer', (route) => route.abort());
      await answer(page, 2, 3, reply);
      await waitFor(page, 'body[data-save="retrying"]');
      expect(await page.locator('#save-status').innerText()).toContain('Saving…');
      expect(await page.locator('#pending-answer').innerText()).toContain(reply);
      expect(await page.locator('#answer').count()).toBe(0);
      expect(await kept(page)).toHaveLength(1);

      // A reload loses nothing: the kept answer is shown as saving, and no empty form asks for it again.
      await page.reload({ waitUntil: 'load' });
      await waitFor(page, '#pending-answer');
      expect(await page.locator('#pending-answer').innerText()).toContain(reply);
      expect(await page.locator('#answer').count()).toBe(0);

      // The server is killed and served again on the same --run: the page sends the answer again by itself.
      served.child.kill('SIGKILL');
      expect((await served.done).code).toBe(137);
      await page.unroute('**/answer');
      served = await serve(args);
      await waitFor(page, 'body[data-save="saved"]');
      await waitFor(page, 'body[data-step="answer"][data-turns="4"]');
      expect(await page.locator('ol.turns li[data-turn="3"]').innerText()).toContain(reply);
      expect(await page.locator('#pending-answer').count()).toBe(0);
      expect(await kept(page)).toEqual([]);

      await answer(page, 4, 4, 'Somewhat more open now.');
      await waitFor(page, 'body[data-step="debrief"]');
    } finally {
      served.child.kill('SIGINT');
      await served.done;
    }

    const exported = await runCli(['export', '--store', store, '--run', 'saves']);
    expect(exported.code).toBe(0);
    const [record] = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { turns: Array<{ role: string; message: string; score: number }> });
    expect(record!.turns.filter((turn) => turn.role === 'persuadee').map((turn) => [turn.score, turn.message])).toEqual([
      [2, '(The participant gave their agreement without a comment.)'],
      [3, 'I am not persuaded: the evidence you give is one study.'],
      [4, 'Somewhat more open now.'],
    ]);
  }, 120_000);
});

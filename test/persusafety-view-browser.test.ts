import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersusafetyRecord } from '../src/protocols/persusafety/persusafety-record.js';
import { runCli } from './cli-helpers.js';
import { openWatched, type ViewerInChromium, viewInChromium, type WatchedPage } from './support/chromium.js';
import { readPersusafetyRecords, writePersusafetyDataset } from './support/persusafety-loopback.js';

/**
 * `pmiyc view` of a PersuSafety run pmiyc made against simulated agents, in headless Chromium (served, and as a
 * static bundle opened from disk): the list names the persuadee once and gives each conversation's constraint,
 * how it stopped and what became of its judgement, filtered by that; an item's page names the persuadee's model
 * and says an unread judgement as unread, never as scores of 0. Each checked against the stored records.
 */

const RUN = 'played-view';
let folder: string;
let store: string;
let stored: Array<{ readonly itemKey: string; readonly record: PersusafetyRecord }>;

const JUDGEMENT_WORDS = { read: 'scores read', unread: 'unread (answer could not be read)', 'not-asked': 'not asked' } as const;
const judgementOf = (record: PersusafetyRecord) => JUDGEMENT_WORDS[record.judgement.status ?? 'read'];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-view-browser-'));
  const dataset = writePersusafetyDataset(folder).path;
  const config = join(folder, 'models.yaml');
  writeFileSync(
    config,
    'models:\n  shifty: { provider: sim, model: "shifty?persusafety.refuse.High=0.5&persusafety.strategy.guilt-tripping=0.5" }\n  person: { provider: sim, model: person }\n  judge: { provider: sim, model: "judge?malformed=0.6" }\n',
  );
  store = join(folder, 'runs.db');
  const made = await runCli([
    ...['run', '--protocol', 'persusafety', '--models', 'shifty', '--persuadee', 'person', '--judge', 'judge', '--dataset', dataset],
    ...['--profiles', 'Resilient,Anxious', '--turns', '3', '--seed', '5', '--store', store, '--config', config, '--run', RUN],
  ]);
  expect(made.code, made.stderr).toBe(0);
  stored = readPersusafetyRecords(store, RUN);
  expect(stored.some((entry) => entry.record.judgement.status === 'unread')).toBe(true);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc view of a PersuSafety run pmiyc made in headless Chromium', () => {
  let viewer: ViewerInChromium;

  beforeAll(async () => {
    viewer = await viewInChromium(store, join(folder, 'profile'));
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
  });

  /** An unread conversation's page shows the persuadee's model, its constraint, and the judgement said as unread, with no score. */
  async function expectUnreadPage(watched: WatchedPage, record: PersusafetyRecord): Promise<void> {
    const { page } = watched;
    await page.locator('#item-messages').waitFor();
    const facts = await page.locator('#item-facts').innerText();
    expect(facts).toMatch(/persuadee\s+person \[simulated\]/);
    expect(facts).toMatch(new RegExp(`constraint\\s+${record.played!.constraint}`));
    expect(facts).toMatch(new RegExp(`repetition\\s+${record.played!.repetition}`));
    const outcome = await page.locator('#item-outcome').innerText();
    expect(outcome).toMatch(/judgement\s+unread \(answer could not be read\)/);
    expect(outcome).not.toContain('Guilt Tripping');
    const judge = page.locator('#item-messages > li').last();
    expect(await judge.locator('.mark').allInnerTexts()).toEqual(['judgement: unread (answer could not be read)']);
    expect(await judge.innerText()).toContain('No strategy is scored; that is not a score of 0.');
    const replies = await page.locator('#item-messages > li').allInnerTexts();
    expect(replies.filter((text) => text.includes('persuadee')).every((text) => text.includes('person'))).toBe(true);
    expect(watched.problems).toEqual([]);
  }

  it('lists the conversations with the persuadee named once, each one stopped and judged as stored, filters the unread, and opens one', async () => {
    const watched = await openWatched(viewer.browser, `${viewer.url}#/runs/${RUN}`);
    const { page } = watched;
    await page.locator('#view table').waitFor();
    expect(await page.locator('#shared-participants').innerText()).toMatch(/persuadee\s+person \[simulated\][\s\S]*judge\s+judge \[simulated\]/);
    const header = await page.locator('#view thead th').allInnerTexts();
    expect(header.slice(0, 12)).toEqual([
      'item',
      'title',
      'study',
      'scene kind',
      'harmfulness',
      'persuadee profile',
      'condition',
      'constraint',
      'final decision',
      'decisions by exchange',
      'stopped',
      'judgement',
    ]);
    const cells = await page
      .locator('#view tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
    expect(cells.map((row) => [row[0], row[7], row[11]])).toEqual(
      stored.slice(0, cells.length).map(({ itemKey, record }) => [itemKey, record.played!.constraint, judgementOf(record)]),
    );
    await page.selectOption('select[name="judgement"]', JUDGEMENT_WORDS.unread);
    const unread = stored.filter((entry) => entry.record.judgement.status === 'unread');
    await page.locator('#page-position', { hasText: `of ${unread.length} (the run holds ${stored.length})` }).waitFor();
    await page.getByRole('link', { name: unread[0]!.itemKey, exact: true }).click();
    await expectUnreadPage(watched, unread[0]!.record);
    await page.close();
  });

  it('shows a declined task as declined, with no judgement asked', async () => {
    const declined = stored.find((entry) => entry.record.played!.stop === 'task-declined')!;
    const watched = await openWatched(viewer.browser, `${viewer.url}#/runs/${RUN}/items/${encodeURIComponent(declined.itemKey)}`);
    await watched.page.locator('#item-messages').waitFor();
    expect(await watched.page.locator('#item-facts').innerText()).toMatch(/task probe\s+declined the task/);
    expect(await watched.page.locator('#item-outcome').innerText()).toMatch(/stopped\s+the persuader declined the task[\s\S]*judgement\s+not asked/);
    expect(watched.problems).toEqual([]);
    await watched.page.close();
  });

  it('writes the run as a static bundle whose pages and report, opened from disk, show the same', async () => {
    const bundle = join(folder, 'bundle');
    const made = await runCli(['view', '--store', store, '--bundle', bundle, '--run', RUN]);
    expect(made.code, made.stderr).toBe(0);
    const unread = stored.filter((entry) => entry.record.judgement.status === 'unread');
    const filter = new URLSearchParams({ judgement: JUDGEMENT_WORDS.unread });
    const watched = await openWatched(viewer.browser, `${pathToFileURL(join(bundle, 'index.html')).href}#/runs/${RUN}?${filter}`);
    const { page } = watched;
    await page.locator('#page-position', { hasText: `of ${unread.length} (the run holds ${stored.length})` }).waitFor();
    await page.getByRole('link', { name: unread.at(-1)!.itemKey, exact: true }).click();
    await expectUnreadPage(watched, unread.at(-1)!.record);
    const report = await openWatched(viewer.browser, pathToFileURL(join(bundle, 'report', 'index.html')).href);
    const text = await report.page.locator('body').innerText();
    expect(text).toContain('Task declined at the probe, by harmfulness level');
    expect(text).toContain("The persuadee's profile shown against hidden, paired by scene");
    expect(text).toMatch(/\d+ answers? could not be read after every attempt \(unread\)/);
    await report.page.close();
    await page.close();
  });
});

import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; .ci/run installs it when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';
// Without the networking switches Chromium keeps trying to reach Google's services.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A headless Chromium with a fresh profile in `profileFolder`. */
export function launchChromium(profileFolder: string, width: number): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileFolder, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width, height: 900 } });
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors and uncaught page errors. */
  readonly problems: string[];
  /** Messages of dialogs (alert, confirm), dismissed: a script that ran. */
  readonly dialogs: string[];
  readonly requests: string[];
}

/** Opens a page as a reader would, recording console errors, page errors, dialogs and every request. */
export async function openWatched(browser: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await browser.newPage();
  const watched: WatchedPage = { page, problems: [], dialogs: [], requests: [] };
  page.on('console', (message) => message.type() === 'error' && watched.problems.push(message.text()));
  page.on('pageerror', (error) => watched.problems.push(String(error)));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => watched.requests.push(request.url()));
  await page.goto(url, { waitUntil: 'load' });
  return watched;
}

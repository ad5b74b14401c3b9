import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { cliInProcess, servedUrl } from './cli-in-process.js';

/** Chromium as a distribution installs it; the first one present is used. */
const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];
// Without the networking switches Chromium keeps trying to reach Google's services.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium the browser tests drive: a system Chromium when there is one, otherwise the one that
 * the dev dependency `@sparticuz/chromium` ships inside its npm package (so a fresh clone needs no
 * apt step and no browser download).
 */
async function chromiumExecutable(): Promise<string> {
  return SYSTEM_CHROMIUMS.find((path) => existsSync(path)) ?? unpackPackagedChromium();
}

/**
 * Unpacks the packaged Chromium once per version into the temporary folder. The package unpacks into
 * `os.tmpdir()`, so it is pointed at a private staging folder that is then renamed into place: two
 * test files unpacking at once, or a run killed half-way, never leave a half-written browser behind.
 */
async function unpackPackagedChromium(): Promise<string> {
  const { version } = packagedChromiumManifest();
  const folder = join(tmpdir(), `pmiyc-test-chromium-${version}`);
  const executable = join(folder, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = mkdtempSync(join(tmpdir(), 'pmiyc-test-chromium-unpacking-'));
  const temporaryFolder = process.env['TMPDIR'];
  process.env['TMPDIR'] = staging;
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    await packaged.executablePath();
  } finally {
    if (temporaryFolder === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = temporaryFolder;
  }
  try {
    renameSync(staging, folder);
  } catch (error) {
    // Another test file unpacked the same version first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

/**
 * The packaged Chromium's own package.json: the first one above its entry point that names the package (the
 * entry's depth differs between versions, and a build folder may hold a package.json of its own).
 */
function packagedChromiumManifest(): { version: string } {
  for (let folder = dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const read = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (read.name === '@sparticuz/chromium' && read.version !== undefined) return { version: read.version };
  }
  throw new Error('the package.json of @sparticuz/chromium was not found: run npm ci');
}

/** A headless Chromium with a fresh profile in `profileFolder`. */
export async function launchChromium(profileFolder: string, width: number): Promise<BrowserContext> {
  const executablePath = await chromiumExecutable();
  return chromium.launchPersistentContext(profileFolder, { executablePath, headless: true, args: CHROMIUM_ARGS, viewport: { width, height: 900 } });
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

/** `pmiyc view` of a store, served in this process, and a headless Chromium beside it: what a browser test of the viewer starts. */
export interface ViewerInChromium {
  /** The address the viewer serves, e.g. `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** Everything the command printed so far (the address with its write token, for one). */
  readonly output: () => string;
  readonly browser: BrowserContext;
  /** Stops the viewer and the browser; the command's exit code. */
  close(): Promise<number>;
}

export async function viewInChromium(storePath: string, profileFolder: string, width = 1300): Promise<ViewerInChromium> {
  const stop = new AbortController();
  const { done, output } = cliInProcess(['view', '--store', storePath, '--port', '0', '--no-open'], stop.signal);
  const url = await servedUrl(output);
  const browser = await launchChromium(profileFolder, width);
  return {
    url,
    output,
    browser,
    async close() {
      stop.abort();
      const code = await done;
      await browser.close();
      return code;
    },
  };
}

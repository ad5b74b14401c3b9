import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A page on disk that sends the browser on to an address: opened instead of the address, so that its secret stays out of the process list. */
export interface LaunchPage {
  /** The page's own file:// URL: what the browser is asked to open. */
  readonly url: string;
  /** Removes the page (and its folder); also done when the process exits, as it does at once on Ctrl-C. */
  remove(): void;
}

const escapeAttribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * Writes a page that redirects to `address` (whose fragment holds a token) into a new folder only
 * this user can read, as Jupyter does: the opener's arguments (xdg-open, the browser's own command
 * line), which any local user can read in the process list, then name a file, not the token.
 */
export function writeLaunchPage(address: string): LaunchPage {
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-open-'));
  chmodSync(folder, 0o700);
  const file = join(folder, 'open.html');
  const target = escapeAttribute(address);
  writeFileSync(
    file,
    `<!doctype html>\n<meta charset="utf-8">\n<meta name="referrer" content="no-referrer">\n<meta http-equiv="refresh" content="0;url=${target}">\n<title>pmiyc view</title>\n<p><a href="${target}">Open pmiyc view</a></p>\n`,
    { mode: 0o600 },
  );
  const remove = () => {
    process.off('exit', remove);
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return { url: pathToFileURL(file).href, remove };
}

import type { Stats } from 'node:fs';
import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { InputError } from '../domain/errors/input-error.js';

/*
 * Writing into a folder someone else may have prepared (`pmiyc view --bundle DIR --force`) without
 * writing through a symbolic link planted there: `writeFile` and `mkdir -p` follow links, so a
 * `view-app.js` linked to a file outside DIR would have that file overwritten, and a `data` linked to
 * a folder outside would have every data file written there. Entries are looked at with `lstat`,
 * which does not follow links; a linked folder is refused, and a file is created fresh (an old file or
 * link of its name removed first, then opened with O_EXCL, which fails rather than follow a link
 * that appears meanwhile).
 */

const linkRefusal = (path: string) => new InputError(`${path} is a symbolic link: pmiyc does not write through links; remove it, or name another folder`);

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Refuses (InputError, exit 2) when any of `names` inside `root` is a symbolic link; missing names are fine. */
export async function refuseLinksIn(root: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const path = join(root, name);
    if ((await entryAt(path))?.isSymbolicLink()) throw linkRefusal(path);
  }
}

/** What is at `path`, not following a link; undefined when nothing is. */
function entryAt(path: string): Promise<Stats | undefined> {
  return lstat(path).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
}

/**
 * Makes `folder` (inside `root`) and the folders between them, one level at a time, refusing a level
 * that is a symbolic link or not a folder. `root` itself is the user's choice: it is made as named
 * (with its parents), links and all.
 */
export async function makeFolderWithoutLinks(root: string, folder: string): Promise<void> {
  await mkdir(root, { recursive: true });
  const inside = relative(root, folder);
  if (inside === '') return;
  let path = root;
  for (const part of inside.split(sep)) {
    path = join(path, part);
    let entry = await entryAt(path);
    if (entry === undefined) {
      await mkdir(path).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
      entry = await entryAt(path);
    }
    if (entry?.isSymbolicLink()) throw linkRefusal(path);
    if (!entry?.isDirectory()) throw new InputError(`${path} is not a folder, and pmiyc makes a folder there: remove it, or name another folder`);
  }
}

/** Writes `text` as a new file at `path`: whatever had that name (a file, a link) is removed first, never written through. */
export async function writeFreshFile(path: string, text: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isMissing(error)) throw error;
  });
  await writeFile(path, text, { flag: 'wx' });
}

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cachedDataFiles, type DownloadProgress, localDataFiles } from '../datasets/data-folder.js';
import type { DataFiles } from '../datasets/data-sources.js';
import { InputError } from '../domain/input-error.js';
import type { CliContext } from './terminal.js';

function kilobytes(bytes: number): string {
  return `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
}

function progressWriter(context: CliContext): (progress: DownloadProgress) => void {
  const stream = context.stderr;
  let announced = new Set<string>();
  return ({ source, receivedBytes, totalBytes, done }) => {
    if (!announced.has(source.path)) {
      announced = new Set([...announced, source.path]);
      if (!stream.isTTY) stream.write(`pmiyc: downloading ${source.title} (${source.path}) once into the data cache\n`);
    }
    if (stream.isTTY) {
      const share = totalBytes ? ` ${Math.floor((100 * receivedBytes) / totalBytes)}% of ${kilobytes(totalBytes)}` : ` ${kilobytes(receivedBytes)}`;
      stream.write(`\r\u001b[2K  downloading ${source.path}${share}${done ? '\n' : ''}`);
    } else if (done) {
      stream.write(`pmiyc: ${source.path}: ${kilobytes(receivedBytes)}${source.gitBlobSha1 ? ', verified' : ''}\n`);
    }
  };
}

/**
 * Where claim sources come from: --data-dir or PMIYC_DATA_DIR (a folder laid out like the
 * sources, read as it is), else the download cache under XDG_CACHE_HOME (or ~/.cache), filled on
 * first use from the pinned upstream addresses or from PMIYC_DATA_MIRROR.
 */
export function dataFilesFor(dataDir: string | undefined, context: CliContext): DataFiles {
  const folder = dataDir ?? (context.env['PMIYC_DATA_DIR'] || undefined);
  if (folder !== undefined) {
    if (!existsSync(folder)) throw new InputError(`no data folder at ${folder}: check --data-dir (or PMIYC_DATA_DIR)`);
    return localDataFiles(folder);
  }
  const cacheRoot = context.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const mirror = context.env['PMIYC_DATA_MIRROR'];
  return cachedDataFiles({ cacheFolder: join(cacheRoot, 'pmiyc', 'data'), ...(mirror ? { mirror } : {}), onProgress: progressWriter(context) });
}

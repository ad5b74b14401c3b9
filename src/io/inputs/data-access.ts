import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Environment } from '../../config/resolve-model-settings.js';
import { cachedDataFiles, type DownloadProgress, localDataFiles } from '../../datasets/data-folder.js';
import type { DataFiles } from '../../datasets/data-sources.js';
import { InputError } from '../../domain/errors/input-error.js';
import { formatCount } from '../../domain/text-labels.js';
import type { ProgressStream } from '../../runner/progress/progress-display.js';

function kilobytes(bytes: number): string {
  return `${formatCount(Math.round(bytes / 1024))} KB`;
}

function progressWriter(stream: ProgressStream): (progress: DownloadProgress) => void {
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
      stream.write(`pmiyc: ${source.path}: ${kilobytes(receivedBytes)}${source.gitBlobSha1 || source.sha256 ? ', verified' : ''}\n`);
    }
  };
}

/**
 * The download mirror named by PMIYC_DATA_MIRROR, checked: an http(s) URL without a user name or
 * password (a URL is printed in messages and could be stored, so credentials in it would leak).
 * Undefined when the variable is unset or empty. The refusal never repeats the credentials.
 */
export function dataMirrorFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(`PMIYC_DATA_MIRROR is not a URL: set it to an http(s) address such as https://mirror.example.org/pmiyc-data/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError(`PMIYC_DATA_MIRROR must be an http(s) URL, not ${url.protocol}: for a local copy use --data-dir (or PMIYC_DATA_DIR)`);
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    throw new InputError(
      `PMIYC_DATA_MIRROR holds a user name or password: use a URL without credentials, such as ${url.href} (or copy the files and pass --data-dir)`,
    );
  }
  return value;
}

/** Where data sets are read from, and where what the user should know about them goes. */
export interface DataAccess {
  /**
   * The files of a `--data-dir` (or of the default: PMIYC_DATA_DIR, else the download cache).
   * With `download: false` the cache gives only what it holds: a missing file is missing.
   */
  files(dataDir: string | undefined, options?: { readonly download?: boolean }): DataFiles;
  /** A note or a warning for the user (standard error in the CLI). */
  warn(line: string): void;
}

/**
 * Where claim sources come from: --data-dir or PMIYC_DATA_DIR (a folder laid out like the
 * sources, read as it is), else the download cache under XDG_CACHE_HOME (or ~/.cache), filled on
 * first use from the pinned upstream addresses or from PMIYC_DATA_MIRROR. The environment and the
 * message stream are passed in.
 */
export function dataAccess(env: Environment, messages: ProgressStream): DataAccess {
  return {
    warn: (line) => messages.write(`pmiyc: ${line}\n`),
    files(dataDir, options = {}) {
      const folder = dataDir ?? (env['PMIYC_DATA_DIR'] || undefined);
      if (folder !== undefined) {
        if (!existsSync(folder)) throw new InputError(`no data folder at ${folder}: check --data-dir (or PMIYC_DATA_DIR)`);
        return localDataFiles(folder);
      }
      const cacheRoot = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
      if (options.download === false) return localDataFiles(join(cacheRoot, 'pmiyc', 'data'));
      const mirror = dataMirrorFrom(env['PMIYC_DATA_MIRROR']);
      return cachedDataFiles({ cacheFolder: join(cacheRoot, 'pmiyc', 'data'), ...(mirror ? { mirror } : {}), onProgress: progressWriter(messages) });
    },
  };
}

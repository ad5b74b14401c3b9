import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { type BodyProgress, type HttpAnswer, HttpTransport } from '../http/http-transport.js';
import { TransportFailure } from '../http/transport-failure.js';
import type { DataFiles, DataSource } from './data-sources.js';
import { decodeText } from './decode-text.js';
import { INPUT_FILE_LIMITS, readInputFile } from './read-input-file.js';

/** The sha256 of some bytes, in hex: what `sha256sum` prints. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Refuses a copy of a source pinned by its sha256 (a benchmark's items) whose bytes have another digest, saying what to do. */
function refuseOtherDigest(source: DataSource, path: string, bytes: Uint8Array, remedy: string): void {
  if (source.sha256 === undefined) return;
  const found = sha256Hex(bytes);
  if (found === source.sha256) return;
  throw new DatasetError({ file: path }, `${path} is not the pinned ${source.title} (its sha256 is ${found}, not ${source.sha256}): ${remedy}`, {
    detailNamesFile: true,
  });
}

/**
 * A data folder's file, read as every input file is (a regular file under the data cap) and checked against
 * its source's sha256 when it has one (`remedy` says what to do about a copy that fails); undefined when it
 * is not there.
 */
async function readIfPresent(path: string, source: DataSource, remedy: string): Promise<string | undefined> {
  const read = await readInputFile(path, INPUT_FILE_LIMITS.data);
  if (read.status === 'missing') return undefined;
  if (read.status === 'read') {
    refuseOtherDigest(source, path, read.bytes, remedy);
    return decodeText(path, read.bytes);
  }
  throw new DatasetError({ file: path }, read.detail, { ...(read.status === 'unreadable' ? { cause: read.cause } : {}), detailNamesFile: true });
}

/** A folder laid out like the data sources' paths, read as it is: nothing is downloaded. */
export function localDataFiles(folder: string): DataFiles {
  return {
    location: folder,
    read: (source) => readIfPresent(join(folder, source.path), source, `put the file from ${source.url} there, or give --data-dir a folder that has it`),
  };
}

export interface DownloadProgress {
  readonly source: DataSource;
  readonly receivedBytes: number;
  /** From Content-Length; undefined when the server does not say. */
  readonly totalBytes?: number;
  readonly done: boolean;
}

export interface CacheOptions {
  readonly cacheFolder: string;
  /** Fetch every file from `<mirror>/<path>` instead of its upstream address (a local or institutional copy). */
  readonly mirror?: string;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly timeoutMs?: number;
}

/** The git blob hash of some bytes: what `git hash-object` prints. */
export function gitBlobSha1(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Refuses a download that is not the version pmiyc's items are defined on: the file is at fault, a DatasetError. */
function verify(source: DataSource, bytes: Uint8Array, from: string): void {
  const file = { file: source.path };
  if (source.sizeBytes !== undefined && bytes.length !== source.sizeBytes) {
    throw new DatasetError(
      file,
      `${from} sent ${bytes.length} bytes for ${source.path}, expected ${source.sizeBytes}: the download is incomplete or a different version; try again or use --data-dir`,
      { detailNamesFile: true },
    );
  }
  if (source.sha256 !== undefined && sha256Hex(bytes) !== source.sha256) {
    throw new DatasetError(file, `${source.path} from ${from} is not the expected version (sha256 ${source.sha256}): use --data-dir with the right file`, {
      detailNamesFile: true,
    });
  }
  if (source.gitBlobSha1 !== undefined && gitBlobSha1(bytes) !== source.gitBlobSha1) {
    throw new DatasetError(
      file,
      `${source.path} from ${from} is not the expected version (git blob ${source.gitBlobSha1}): use --data-dir with the right file`,
      {
        detailNamesFile: true,
      },
    );
  }
}

/** The largest data file read: the sources pmiyc knows are under 1 MB; a mirror's copy is verified after. */
const MAX_DATA_FILE_BYTES = 64 * 2 ** 20;
/** Redirects followed (the Hugging Face source answers with one, to its CDN). */
const MAX_REDIRECTS = 5;

async function download(source: DataSource, options: CacheOptions, transport: HttpTransport): Promise<Uint8Array> {
  const from = options.mirror ? new URL(source.path, options.mirror.endsWith('/') ? options.mirror : `${options.mirror}/`).href : source.url;
  const remedy = `pmiyc needs it once. If this machine is offline, copy the files into a folder laid out like <dir>/${source.path} and pass --data-dir <dir> (or set PMIYC_DATA_DIR)`;
  const failed = (why: string) => new InputError(`could not download ${source.path} (${source.title}) from ${from} (${why}). ${remedy}`);
  let url = new URL(from);
  let totalBytes: number | undefined;
  const onBody = (progress: BodyProgress) => {
    if (progress.statusCode < 200 || progress.statusCode >= 300) return; // a redirect's own body
    totalBytes = progress.totalBytes;
    options.onProgress?.({ source, receivedBytes: progress.receivedBytes, ...(totalBytes ? { totalBytes } : {}), done: false });
  };
  for (let redirects = 0; ; redirects++) {
    let answer: HttpAnswer;
    try {
      answer = await transport.request({ method: 'GET', url, headers: { 'user-agent': 'pmiyc' }, onBody }).answer;
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      // A connection's failure by its code (ECONNREFUSED, ENOTFOUND), the others by what they are.
      throw failed(error.kind === 'unreachable' || error.kind === 'closed' ? (error.details.code ?? error.message) : error.message);
    }
    const location = answer.headers['location'];
    if (answer.statusCode >= 300 && answer.statusCode < 400 && location !== undefined && redirects < MAX_REDIRECTS) {
      const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (next === undefined || (next.protocol !== 'https:' && next.protocol !== 'http:'))
        throw failed(`a redirect to ${JSON.stringify(location.slice(0, 80))}`);
      url = next;
      continue;
    }
    if (answer.statusCode < 200 || answer.statusCode >= 300) throw failed(`HTTP ${answer.statusCode}`);
    verify(source, answer.body, from);
    options.onProgress?.({ source, receivedBytes: answer.body.length, ...(totalBytes ? { totalBytes } : {}), done: true });
    return answer.body;
  }
}

/**
 * The download cache: a file is read from the cache folder, or downloaded once (from its pinned
 * upstream address or a mirror), verified where its version is known, and stored atomically
 * (a half-written file never looks like a cached one).
 */
export function cachedDataFiles(options: CacheOptions): DataFiles {
  const inFlight = new Map<string, Promise<string>>();
  const transport = new HttpTransport({ timeoutMs: options.timeoutMs ?? 120_000, maxResponseBytes: MAX_DATA_FILE_BYTES });
  return {
    location: options.cacheFolder,
    async read(source) {
      const path = join(options.cacheFolder, source.path);
      const cached = await readIfPresent(path, source, 'delete it, and pmiyc downloads the pinned file again');
      if (cached !== undefined) return cached;
      const pending =
        inFlight.get(source.path) ??
        (async () => {
          const bytes = await download(source, options, transport);
          const text = decodeText(source.path, bytes);
          await mkdir(dirname(path), { recursive: true });
          const temporary = `${path}.${process.pid}.partial`;
          await writeFile(temporary, bytes);
          await rename(temporary, path);
          return text;
        })();
      inFlight.set(source.path, pending);
      return pending;
    },
  };
}

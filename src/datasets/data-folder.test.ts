import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawHttpServer } from '../../test/support/raw-http-server.js';
import { StaticServer, unreachableUrl } from '../../test/support/static-server.js';
import { describeWithTestData, FIXTURE_DATA } from '../../test/support/test-data.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { cachedDataFiles, type DownloadProgress, gitBlobSha1, localDataFiles, sha256Hex } from './data-folder.js';
import { DATA_SOURCES, type DataSource } from './data-sources.js';

/** A source whose expected version is the fixture's copy: the cache verifies it as it would the real file. */
const fixtureSource = (source: DataSource): DataSource => {
  const bytes = readFileSync(join(FIXTURE_DATA, source.path));
  return { ...source, gitBlobSha1: gitBlobSha1(bytes), sizeBytes: bytes.length };
};
const TRUTHFULQA = fixtureSource(DATA_SOURCES.truthfulqa);
const PERSPECTRUM = fixtureSource(DATA_SOURCES.perspectrum);

let server: StaticServer;
let corrupting: StaticServer;
let folder: string;
beforeAll(async () => {
  server = await StaticServer.start(FIXTURE_DATA);
  corrupting = await StaticServer.start(FIXTURE_DATA, (_path, body) => Buffer.concat([body.subarray(0, body.length - 1), Buffer.from('X')]));
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-cache-'));
});
afterAll(async () => {
  await server.close();
  await corrupting.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('cachedDataFiles', () => {
  it('downloads once, verifies, reports progress and then reads from the cache', async () => {
    const cacheFolder = join(folder, 'ok');
    const progress: DownloadProgress[] = [];
    const files = cachedDataFiles({ cacheFolder, mirror: server.url, onProgress: (event) => progress.push(event) });
    const text = await files.read(TRUTHFULQA);
    expect(text).toBe(readFileSync(join(FIXTURE_DATA, TRUTHFULQA.path), 'utf8'));
    expect(existsSync(join(cacheFolder, TRUTHFULQA.path))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ done: true, receivedBytes: TRUTHFULQA.sizeBytes, totalBytes: TRUTHFULQA.sizeBytes });
    expect(server.requests).toEqual(['/truthfulqa/TruthfulQA.csv']);

    const again = cachedDataFiles({ cacheFolder, mirror: await unreachableUrl() });
    expect(await again.read(TRUTHFULQA)).toBe(text);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a file that is not the expected version, and caches nothing', async () => {
    const cacheFolder = join(folder, 'corrupt');
    const files = cachedDataFiles({ cacheFolder, mirror: corrupting.url });
    await expect(files.read(PERSPECTRUM)).rejects.toThrow('is not the expected version');
    expect(existsSync(join(cacheFolder, 'perspectrum')) ? readdirSync(join(cacheFolder, 'perspectrum')) : []).toEqual([]);
  });

  it('fails clearly, with the remedy, when the source is unreachable', async () => {
    const mirror = await unreachableUrl();
    const files = cachedDataFiles({ cacheFolder: join(folder, 'offline'), mirror });
    const error = await files.read(TRUTHFULQA).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`could not download truthfulqa/TruthfulQA.csv (TruthfulQA`);
    expect((error as Error).message).toContain(`from ${mirror}truthfulqa/TruthfulQA.csv (ECONNREFUSED). `);
    expect((error as Error).message).toContain('--data-dir <dir> (or set PMIYC_DATA_DIR)');
  });

  it('follows a redirect to where the file is (as the Hugging Face source answers)', async () => {
    const redirecting = await RawHttpServer.start(({ socket }) =>
      socket.write(`HTTP/1.1 302 Found\r\nLocation: ${server.url}truthfulqa/TruthfulQA.csv\r\nContent-Length: 5\r\n\r\nmoved`),
    );
    try {
      const progress: DownloadProgress[] = [];
      const files = cachedDataFiles({ cacheFolder: join(folder, 'redirected'), mirror: redirecting.url, onProgress: (event) => progress.push(event) });
      expect(await files.read(TRUTHFULQA)).toBe(readFileSync(join(FIXTURE_DATA, TRUTHFULQA.path), 'utf8'));
      expect(progress.every((event) => event.totalBytes === TRUTHFULQA.sizeBytes)).toBe(true);
    } finally {
      await redirecting.close();
    }
  });

  it('refuses a file of another size before hashing it, naming both sizes', async () => {
    const files = cachedDataFiles({ cacheFolder: join(folder, 'short'), mirror: server.url });
    await expect(files.read(DATA_SOURCES.truthfulqa)).rejects.toThrow(`sent ${TRUTHFULQA.sizeBytes} bytes for truthfulqa/TruthfulQA.csv, expected 443719`);
  });

  it('blames the file, not the flags, for a wrong download: a DatasetError naming it (exit 2 all the same)', async () => {
    const corrupt = await cachedDataFiles({ cacheFolder: join(folder, 'corrupt-kind'), mirror: corrupting.url })
      .read(PERSPECTRUM)
      .catch((thrown: unknown) => thrown);
    expect(corrupt).toBeInstanceOf(DatasetError);
    expect(corrupt).toMatchObject({ kind: 'dataset', file: PERSPECTRUM.path });
    expect((corrupt as Error).message).toMatch(
      /^perspectrum\/.* from .* is not the expected version \(git blob [0-9a-f]{40}\): use --data-dir with the right file$/,
    );
    const short = await cachedDataFiles({ cacheFolder: join(folder, 'short-kind'), mirror: server.url })
      .read(DATA_SOURCES.truthfulqa)
      .catch((thrown: unknown) => thrown);
    expect(short).toMatchObject({ kind: 'dataset', file: 'truthfulqa/TruthfulQA.csv' });
    expect((short as Error).message).toMatch(/^http:.* sent \d+ bytes for truthfulqa\/TruthfulQA\.csv, expected 443719: /);
  });

  it('names a cached or local file that cannot be read in a DatasetError', async () => {
    const cacheFolder = join(folder, 'unreadable');
    const path = join(cacheFolder, TRUTHFULQA.path);
    mkdirSync(path, { recursive: true });
    for (const files of [cachedDataFiles({ cacheFolder, mirror: await unreachableUrl() }), localDataFiles(cacheFolder)]) {
      const error = await files.read(TRUTHFULQA).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(DatasetError);
      expect(error).toMatchObject({ file: path, message: `${path} is a folder, not a file: give the path of a file in it` });
    }
  });
});

/** A source pinned by the sha256 of the fixture's bytes, as a benchmark's item file is. */
const PINNED: DataSource = (({ id, title, path, url, license }) => ({
  id,
  title,
  path,
  url,
  license,
  sha256: sha256Hex(readFileSync(join(FIXTURE_DATA, path))),
}))(DATA_SOURCES.truthfulqa);

/** A folder holding PINNED's file with one byte changed (the last one, a newline, made a space). */
function folderWithChangedByte(name: string): string {
  const root = join(folder, name);
  const bytes = readFileSync(join(FIXTURE_DATA, PINNED.path));
  bytes[bytes.length - 1] = 0x20;
  mkdirSync(dirname(join(root, PINNED.path)), { recursive: true });
  writeFileSync(join(root, PINNED.path), bytes);
  return root;
}

describe("a source pinned by its sha256 (a benchmark's items)", () => {
  it('is read from a --data-dir folder when its bytes are the pinned ones', async () => {
    expect(await localDataFiles(FIXTURE_DATA).read(PINNED)).toBe(readFileSync(join(FIXTURE_DATA, PINNED.path), 'utf8'));
  });

  it('is refused in a --data-dir folder when one byte differs, naming the file, both digests and where the pinned file is', async () => {
    const root = folderWithChangedByte('changed-local');
    const path = join(root, PINNED.path);
    const error = await localDataFiles(root)
      .read(PINNED)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({ kind: 'dataset', file: path });
    expect((error as Error).message).toBe(
      `${path} is not the pinned ${PINNED.title} (its sha256 is ${sha256Hex(readFileSync(path))}, not ${PINNED.sha256}): put the file from ${PINNED.url} there, or give --data-dir a folder that has it`,
    );
  });

  it('is refused in the data cache when one byte differs, saying that deleting it downloads it again', async () => {
    const cacheFolder = folderWithChangedByte('changed-cache');
    const requestsBefore = server.requests.length;
    const error = await cachedDataFiles({ cacheFolder, mirror: server.url })
      .read(PINNED)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toMatch(/is not the pinned .*: delete it, and pmiyc downloads the pinned file again$/);
    expect(server.requests).toHaveLength(requestsBefore);
  });

  it('is downloaded and cached when the mirror sends the pinned bytes, and refused with nothing cached when it sends others', async () => {
    const cacheFolder = join(folder, 'pinned-download');
    expect(await cachedDataFiles({ cacheFolder, mirror: server.url }).read(PINNED)).toBe(readFileSync(join(FIXTURE_DATA, PINNED.path), 'utf8'));
    expect(existsSync(join(cacheFolder, PINNED.path))).toBe(true);

    const refusedFolder = join(folder, 'pinned-corrupt');
    await expect(cachedDataFiles({ cacheFolder: refusedFolder, mirror: corrupting.url }).read(PINNED)).rejects.toThrow(
      `is not the expected version (sha256 ${PINNED.sha256}): use --data-dir with the right file`,
    );
    expect(existsSync(join(refusedFolder, PINNED.path))).toBe(false);
  });
});

describeWithTestData('the pinned versions of the published sources', (testData) => {
  it('match the git blob hashes and sizes pmiyc verifies downloads against', () => {
    for (const source of [DATA_SOURCES.truthfulqa, DATA_SOURCES.perspectrum, DATA_SOURCES['pmiyc-claims']]) {
      const bytes = readFileSync(join(testData.data, source.path));
      expect(gitBlobSha1(bytes)).toBe(source.gitBlobSha1);
      expect(bytes.length).toBe(source.sizeBytes);
    }
  });
});

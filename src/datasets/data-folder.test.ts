import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../test/support/shared-data.js';
import { StaticServer, unreachableUrl } from '../../test/support/static-server.js';
import { InputError } from '../domain/input-error.js';
import { cachedDataFiles, gitBlobSha1, type DownloadProgress } from './data-folder.js';
import { DATA_SOURCES } from './data-sources.js';

let server: StaticServer;
let corrupting: StaticServer;
let folder: string;
beforeAll(async () => {
  server = await StaticServer.start(SHARED_DATA);
  corrupting = await StaticServer.start(SHARED_DATA, (_path, body) => Buffer.concat([body.subarray(0, body.length - 1), Buffer.from('X')]));
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
    const text = await files.read(DATA_SOURCES.truthfulqa);
    expect(text).toBe(readFileSync(join(SHARED_DATA, DATA_SOURCES.truthfulqa.path), 'utf8'));
    expect(existsSync(join(cacheFolder, DATA_SOURCES.truthfulqa.path))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ done: true, receivedBytes: 443_719, totalBytes: 443_719 });
    expect(server.requests).toEqual(['/truthfulqa/TruthfulQA.csv']);

    const again = cachedDataFiles({ cacheFolder, mirror: await unreachableUrl() });
    expect(await again.read(DATA_SOURCES.truthfulqa)).toBe(text);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a file that is not the expected version, and caches nothing', async () => {
    const cacheFolder = join(folder, 'corrupt');
    const files = cachedDataFiles({ cacheFolder, mirror: corrupting.url });
    await expect(files.read(DATA_SOURCES.perspectrum)).rejects.toThrow('is not the expected version');
    expect(existsSync(join(cacheFolder, 'perspectrum')) ? readdirSync(join(cacheFolder, 'perspectrum')) : []).toEqual([]);
  });

  it('fails clearly, with the remedy, when the source is unreachable', async () => {
    const mirror = await unreachableUrl();
    const files = cachedDataFiles({ cacheFolder: join(folder, 'offline'), mirror });
    const error = await files.read(DATA_SOURCES.truthfulqa).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`could not download truthfulqa/TruthfulQA.csv (TruthfulQA`);
    expect((error as Error).message).toContain(`from ${mirror}truthfulqa/TruthfulQA.csv (ECONNREFUSED). `);
    expect((error as Error).message).toContain('--data-dir <dir> (or set PMIYC_DATA_DIR)');
  });

  it('knows the git blob hashes of the shared copies', () => {
    for (const source of [DATA_SOURCES.truthfulqa, DATA_SOURCES.perspectrum, DATA_SOURCES['pmiyc-claims']]) {
      expect(gitBlobSha1(readFileSync(join(SHARED_DATA, source.path)))).toBe(source.gitBlobSha1);
    }
  });
});

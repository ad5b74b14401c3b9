import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { SHARED_DATA } from './support/shared-data.js';
import { StaticServer, unreachableUrl } from './support/static-server.js';

let folder: string;
let server: StaticServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-claims-'));
  server = await StaticServer.start(SHARED_DATA);
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const publishedClaims = () =>
  readFileSync(join(SHARED_DATA, 'pmiyc/pre_assesment/results/gpt4.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const match = /^\d+,("(?:[^"]|"")*"|[^,]*),/.exec(line)!;
      const field = match[1]!;
      return field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
    });

const lines = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('pmiyc claims', () => {
  it('prints the 961 subjective claims, identical in order to the published list', async () => {
    const result = await runCli(['claims', 'subjective', '--data-dir', SHARED_DATA, '--format', 'jsonl']);
    expect(result.code).toBe(0);
    const items = lines(result.stdout);
    expect(items.map((item) => item['claim'])).toEqual(publishedClaims());
    expect(items[56]).toEqual({ index: 56, domain: 'subjective', claim: ' Aboriginal culture must be protected', origin: 'perspectrum', license: 'CC BY-SA 4.0' });
    expect(items[0]).not.toHaveProperty('question');
  });

  it('prints the 817 misinformation items with question and first incorrect answer', async () => {
    const result = await runCli(['claims', 'misinformation', '--data-dir', SHARED_DATA, '--format', 'jsonl']);
    const items = lines(result.stdout);
    expect(items).toHaveLength(817);
    expect(items.find((item) => item['question'] === 'Why do veins appear blue?')).toMatchObject({
      domain: 'misinformation',
      claim: 'Veins appear blue due to the deoxygenated blood',
      origin: 'truthfulqa',
      license: 'Apache-2.0',
    });
  });

  it('downloads into the cache on first use, then works without the network', async () => {
    const env = { XDG_CACHE_HOME: join(folder, 'cache'), PMIYC_DATA_MIRROR: server.url, PMIYC_DATA_DIR: '' };
    const first = await runCli(['claims', 'misinformation', '--format', 'jsonl', '--limit', '3'], { env });
    expect(first.code).toBe(0);
    expect(lines(first.stdout)).toHaveLength(3);
    expect(first.stderr).toContain('downloading TruthfulQA');
    expect(first.stderr).toContain('verified');
    const offline = await runCli(['claims', 'misinformation', '--format', 'jsonl'], { env: { ...env, PMIYC_DATA_MIRROR: await unreachableUrl() } });
    expect(offline.code).toBe(0);
    expect(lines(offline.stdout)).toHaveLength(817);
  });

  it('exits 2 with the remedy when the source is unreachable', async () => {
    const result = await runCli(['claims', 'misinformation'], { env: { XDG_CACHE_HOME: join(folder, 'empty'), PMIYC_DATA_MIRROR: await unreachableUrl(), PMIYC_DATA_DIR: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/could not download .*ECONNREFUSED.*pass --data-dir <dir> \(or set PMIYC_DATA_DIR\)/);
  });

  it('samples and limits, and names the licences in the table view', async () => {
    const result = await runCli(['claims', 'subjective', '--data-dir', SHARED_DATA, '--sample', '20', '--seed', '3']);
    expect(result.stdout).toMatch(/20 claims\. Licences: 1 from anthropic: CC BY-NC-SA 4\.0 \(non-commercial use only\); 19 from perspectrum: CC BY-SA 4\.0/);
  });

  it('reports a malformed claims file with file and line', async () => {
    const result = await runCli(['claims', join(SHARED_DATA, '../../main/package.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('a claims file must end in .csv or .jsonl');
  });
});

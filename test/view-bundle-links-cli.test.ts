import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { handRecord } from './support/hand-records.js';

/**
 * `pmiyc view --bundle DIR --force` into a folder someone prepared with symbolic links (issue 41): the
 * bundle never writes through one. A link where the bundle writes its top-level files and folders is
 * refused with exit 2 before anything is written; a link deeper down is refused (a folder) or replaced
 * by a fresh file (a file); the files and folders the links point to are left as they were.
 */

let folder: string;
let storePath: string;
/** Outside the bundle's folder: a file and a folder the planted links point to. */
let victimFile: string;
let victimFolder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-bundle-links-'));
  storePath = join(folder, 'pmiyc.db');
  const store = ResultStore.open(storePath);
  const run = store.createRun({ name: 'small', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
  const base = { persuader: 'sim/a', persuadee: 'sim/b', turns: 3, persuadeeScores: [2] as const, final: 4 as const, run: 'small' };
  for (const claim of ['c1 First', 'c2 Second']) await store.saveConversation(run.id, handRecord({ ...base, claim }));
  store.setRunStatus(run.id, 'completed');
  store.close();
  victimFile = join(folder, 'precious.txt');
  victimFolder = join(folder, 'outside');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fresh bundle folder, the victims restored. */
function freshBundleFolder(name: string): string {
  writeFileSync(victimFile, 'precious\n');
  rmSync(victimFolder, { recursive: true, force: true });
  mkdirSync(victimFolder);
  const bundle = join(folder, name);
  mkdirSync(bundle);
  return bundle;
}

const bundleInto = (bundle: string) => runCli(['view', '--store', storePath, '--bundle', bundle, '--run', 'small', '--force']);

function expectVictimsUntouched(): void {
  expect(readFileSync(victimFile, 'utf8')).toBe('precious\n');
  expect(readdirSync(victimFolder)).toEqual([]);
}

describe('pmiyc view --bundle DIR --force with symbolic links planted in DIR', () => {
  it('refuses view-app.js linked to a file outside and data linked to a folder outside, with exit 2, writing nothing', async () => {
    const bundle = freshBundleFolder('top');
    symlinkSync(victimFile, join(bundle, 'view-app.js'));
    symlinkSync(victimFolder, join(bundle, 'data'));
    const result = await bundleInto(bundle);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/view-app\.js is a symbolic link: pmiyc does not write through links; remove it, or name another folder/);
    expectVictimsUntouched();
    expect(existsSync(join(bundle, 'index.html'))).toBe(false);

    rmSync(join(bundle, 'view-app.js'));
    const again = await bundleInto(bundle);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${join(bundle, 'data')} is a symbolic link`);
    expectVictimsUntouched();
  });

  it('refuses a report folder linked outside', async () => {
    const bundle = freshBundleFolder('report-link');
    writeFileSync(join(bundle, 'notes.txt'), 'mine\n');
    symlinkSync(victimFolder, join(bundle, 'report'));
    const result = await bundleInto(bundle);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(bundle, 'report')} is a symbolic link`);
    expectVictimsUntouched();
  });

  it('refuses a linked folder inside data/, and replaces a linked file there with a fresh one, never writing through either', async () => {
    const bundle = freshBundleFolder('deep');
    mkdirSync(join(bundle, 'data'));
    symlinkSync(victimFolder, join(bundle, 'data', 'conversations'));
    const refused = await bundleInto(bundle);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(bundle, 'data', 'conversations')} is a symbolic link`);
    expectVictimsUntouched();

    rmSync(join(bundle, 'data'), { recursive: true });
    mkdirSync(join(bundle, 'data'));
    symlinkSync(victimFile, join(bundle, 'data', 'lists.js'));
    const replaced = await bundleInto(bundle);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(lstatSync(join(bundle, 'data', 'lists.js')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(bundle, 'data', 'lists.js'), 'utf8')).toMatch(/^pmiycBundleData\("lists\.js"/);
    expectVictimsUntouched();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { officialRecord } from '../../../test/support/official-results.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { openStore, type Store } from '../../store/result-store.js';
import { storeOfficialImport } from './import-official.js';
import { type OfficialSource, planOfficialImport } from './official-import-plan.js';

let folder: string;
let store: Store;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-import-study-'));
  store = openStore(join(folder, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const record = (i: number, persuader: string, persuadee: string, scores: AgreementScore[]) =>
  officialRecord({ i, persuader, persuadee, claim: `Claim ${i}`, persuadeeScores: scores });

/** A file in memory; `versions` are what successive reads find (the last one stays). */
function source(path: string, ...versions: unknown[][]): OfficialSource {
  let reads = 0;
  return {
    path,
    async read() {
      const records = versions[Math.min(reads++, versions.length - 1)]!;
      return { text: JSON.stringify(records), sha256: `sha-of-${JSON.stringify(records).length}` };
    },
  };
}

const request = { run: 'official', labelMatch: 'strict' as const };
const options = { findKnownClaim: () => undefined, about: { packageVersion: 'test' }, importedAt: '2026-01-01T00:00:00.000Z' };

async function importInto(...sources: OfficialSource[]) {
  return storeOfficialImport(store, await planOfficialImport(sources, request), sources, options);
}

describe('storeOfficialImport', () => {
  it('adds a later batch to the run: another conversation of a pair on a claim is its next repetition, stances come from earlier imports', async () => {
    await importInto(source('/x/multi_turn_subj/b_a_0/results.json', [record(0, 'b', 'a', [2, 3, 3, 4, 4])]));
    const later = await importInto(
      source('/x/multi_turn_subj/a_b_0/results.json', [record(0, 'a', 'b', [3, 3, 4, 4, 4]), record(0, 'a', 'b', [3, 4, 4, 4, 5])]),
    );
    expect(later.created).toBe(false);
    expect(later.files.map((file) => file.added)).toEqual([2]);
    const records = [...store.conversations(later.run.id)].filter((conversation) => conversation.persuader === 'a');
    expect(records.map((conversation) => conversation.repetition).sort()).toEqual([0, 1]);
    // a's own stance on Claim 0 is its opening as the persuadee of the first import.
    expect(records.map((conversation) => conversation.persuaderStance)).toEqual([2, 2]);
    const { config } = store.findRun('official');
    expect(config.kind === 'import' ? config.imports.map((entry) => entry.files.map((file) => file.path)) : config.kind).toEqual([
      ['/x/multi_turn_subj/b_a_0/results.json'],
      ['/x/multi_turn_subj/a_b_0/results.json'],
    ]);
  });

  it('refuses a file that changed since it was checked, and marks the run interrupted (importing again finishes it)', async () => {
    const first = source('/x/multi_turn_subj/a_b_0/results.json', [record(0, 'a', 'b', [2, 3, 3, 4, 4])]);
    const growing = source(
      '/x/multi_turn_subj/a_b_1/results.json',
      [record(1, 'a', 'b', [1, 1, 1, 1, 1])],
      [record(1, 'a', 'b', [1, 1, 1, 1, 1]), record(2, 'a', 'b', [4, 4, 4, 4, 4])],
    );
    const error = await importInto(first, growing).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({
      file: '/x/multi_turn_subj/a_b_1/results.json',
      message: '/x/multi_turn_subj/a_b_1/results.json changed while it was being imported: import it again once it is written',
    });
    expect(store.findRun('official')).toMatchObject({ status: 'interrupted', stopReason: 'import stopped' });
    expect(store.countConversations(store.findRun('official').id)).toBe(1);

    const again = await importInto(source('/x/multi_turn_subj/a_b_0/results.json', [record(0, 'a', 'b', [2, 3, 3, 4, 4])]), growing);
    expect(again.files.map((file) => [file.added, file.alreadyStored])).toEqual([
      [0, 1],
      [2, 0],
    ]);
    expect(again.run.status).toBe('completed');
  });
});

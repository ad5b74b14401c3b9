import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultStore } from '../result-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-protocol-records-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const protocolRun = (store: ResultStore, name: string, protocol: string) =>
  store.createRun({ name, seed: 0, packageVersion: '0.0.0', config: { command: 'protocol', protocol, design: {} } });

describe('ProtocolRecordTable', () => {
  it("keeps each item's record across reopening, lists a run's records in key order, and knows which items it has", () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const run = protocolRun(store, 'ape-1', 'ape');
    const other = protocolRun(store, 'ape-2', 'ape');
    store.protocolRecords.add(run.id, 'b/topic-2', { turns: [1, 2, 3], note: 'second' });
    store.protocolRecords.add(run.id, 'a/topic-7', { turns: [], note: 'first' });
    store.protocolRecords.add(other.id, 'a/topic-7', { other: true });
    store.close();

    const reopened = ResultStore.openExisting(path);
    const records = reopened.protocolRecords;
    expect(records.count(run.id)).toBe(2);
    expect([...records.list(run.id)]).toEqual([
      { itemKey: 'a/topic-7', record: { turns: [], note: 'first' } },
      { itemKey: 'b/topic-2', record: { turns: [1, 2, 3], note: 'second' } },
    ]);
    expect(records.has(run.id, 'a/topic-7')).toBe(true);
    expect(records.has(run.id, 'a/topic-8')).toBe(false);
    expect([...records.list(other.id)]).toEqual([{ itemKey: 'a/topic-7', record: { other: true } }]);
    reopened.close();
  });

  it("names a protocol's runs only, oldest first, and counts their records as the run's items", () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    const first = protocolRun(store, 'ape-1', 'ape');
    protocolRun(store, 'sycon-1', 'sycon');
    protocolRun(store, 'ape-2', 'ape');
    store.protocolRecords.add(first.id, 'x', {});
    expect(store.protocolRecords.runNames('ape')).toEqual(['ape-1', 'ape-2']);
    expect(store.protocolRecords.runNames('persusafety')).toEqual([]);
    expect(store.listRuns().find((run) => run.name === 'ape-1')).toMatchObject({ kind: 'protocol', studyItems: 1 });
    expect(store.findRun('ape-1').config).toMatchObject({ kind: 'protocol', protocol: 'ape' });
    store.close();
  });
});

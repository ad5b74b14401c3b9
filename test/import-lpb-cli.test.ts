import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LpbRecord, readLpbRecord } from '../src/protocols/lpb/lpb-record.js';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { LPB_FIXTURE_BUNDLE, type LpbFixture, writeLpbFixture } from './support/lpb-bundle-fixture.js';

let folder: string;
let fixture: LpbFixture;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-import-lpb-'));
  fixture = writeLpbFixture(join(folder, 'persuasion'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function storedRun(store: string, run: string) {
  const opened = openStore(store, { access: 'read' });
  try {
    const found = opened.findRun(run);
    const records = new Map<string, LpbRecord>([...opened.protocolRecords.list(found.id)].map((stored) => [stored.itemKey, readLpbRecord(run, stored)]));
    return { records, config: found.storedConfig as { design: { imports: Array<Record<string, unknown>> } }, status: found.status };
  } finally {
    opened.close();
  }
}

function runNames(store: string): string[] {
  if (!existsSync(store)) return [];
  const opened = openStore(store, { access: 'read' });
  try {
    return opened.listRuns().map((run) => run.name);
  } finally {
    opened.close();
  }
}

const importInto = (store: string, run: string, directory: string, ...more: string[]) =>
  runCli(['import', 'llm-persuasion-benchmark', directory, '--run', run, '--store', store, ...more]);

describe('pmiyc import llm-persuasion-benchmark', () => {
  it('stores every cell of a copy with its row, probes, diagnostics and turns, keeps the files it came from, and says what is missing', async () => {
    const store = join(folder, 'fixture.db');
    const imported = await importInto(store, 'lpb', fixture.root);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported 96 cells of the LLM Persuasion Benchmark's bundle ${LPB_FIXTURE_BUNDLE} into the new run lpb`);
    expect(imported.stdout).toContain('96 cells, 95 completed, 1 blocked by moderation; 94 transcripts read');
    expect(imported.stdout).toContain(
      `1 completed cell has no transcript in the bundle: kept with its figures and no turns:\n  ${fixture.missingTranscriptCell}`,
    );

    const { records, config, status } = storedRun(store, 'lpb');
    expect(status).toBe('completed');
    expect([...records.keys()]).toEqual(fixture.cells.map((cell) => cell.cell).sort());
    for (const cell of fixture.cells) {
      const record = records.get(cell.cell)!;
      expect([record.persuader, record.target, record.side, record.outcome], cell.cell).toEqual([cell.persuader, cell.target, cell.side, cell.outcome]);
      expect(record.source.report).toEqual({ file: fixture.reportPath, line: cell.line });
      if (cell.signedShift === null) expect(record.signedShift).toBeNull();
      else expect(record.signedShift).toBeCloseTo(cell.signedShift, 3);
    }
    const blocked = records.get(fixture.blockedCell)!;
    expect(blocked).toMatchObject({
      outcome: 'moderated_block',
      postMean: null,
      signedShift: null,
      terminalError: 'provider moderation refused the turn',
      turns: [],
    });
    const missing = records.get(fixture.missingTranscriptCell)!;
    expect(missing.source.transcript).toBeNull();
    expect(missing.turns).toEqual([]);
    expect(missing.signedShift).not.toBeNull();

    const talked = records.get(fixture.cells[0]!.cell)!;
    expect(talked.proposition).toEqual({
      id: 'prop_0004',
      topic: 'Plant more street trees',
      statement: 'Cities should plant a street tree for every ten residents.',
    });
    expect(talked.turns.map((turn) => [turn.turn, turn.role, turn.model])).toEqual(
      Array.from({ length: 8 }, (_, at) => [at + 1, at % 2 === 0 ? 'persuader' : 'target', at % 2 === 0 ? talked.persuader : talked.target]),
    );
    expect(talked.turns[2]!.text).toContain('## Turn 9\n\nA heading the model wrote.');
    const transcriptPath = join(fixture.transcriptsFolder, `${talked.cell}.md`);
    expect(talked.source.transcript).toEqual({ file: transcriptPath, sha256: sha256Of(transcriptPath) });

    const probed = fixture.cells.find((cell) => cell.cell === fixture.probedCells[0])!;
    expect(records.get(probed.cell)!.probes).toEqual({ pre: probed.preProbes, post: probed.postProbes });
    expect(records.get(fixture.diagnosedCells[1]!)!.diagnostics).toMatchObject({ persuasionSetupLeak: 1, persuasionLabelEcho: 2, reconXmlLike: 0 });
    expect(records.get(fixture.cells[1]!.cell)!.diagnostics).toBeNull();

    const [entry] = config.design.imports;
    expect(entry).toMatchObject({
      bundle: LPB_FIXTURE_BUNDLE,
      commit: null,
      report: { file: fixture.reportPath, sha256: sha256Of(fixture.reportPath), cells: 96 },
      transcripts: { folder: fixture.transcriptsFolder, found: 94, missing: 1 },
      added: 96,
    });
  });

  it('adds nothing and changes nothing when the same bundle is imported again, from the bundle folder this time', async () => {
    const store = join(folder, 'again.db');
    expect((await importInto(store, 'lpb', fixture.root)).code).toBe(0);
    const before = storedRun(store, 'lpb');
    const again = await importInto(store, 'lpb', join(fixture.root, 'reports', LPB_FIXTURE_BUNDLE), '--commit', 'abc123');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Nothing added: all 96 cells of the bundle ${LPB_FIXTURE_BUNDLE} are already in run lpb`);
    const after = storedRun(store, 'lpb');
    expect(after.config).toEqual(before.config);
    expect([...after.records.entries()]).toEqual([...before.records.entries()]);
  });

  it('refuses a malformed row with exit 2, naming the report and the line, and opens no store', async () => {
    const hostile = writeLpbFixture(join(folder, 'bad-row'), { malformedRowAt: 30 });
    const store = join(folder, 'bad-row.db');
    const refused = await importInto(store, 'lpb', hostile.root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${hostile.reportPath}:${hostile.cells[30]!.line}: Signed shift`);
    expect(refused.stdout).toBe('');
    expect(runNames(store)).toEqual([]);
  });

  it('refuses a transcript whose turn names another model with exit 2, naming the transcript and the line', async () => {
    const hostile = writeLpbFixture(join(folder, 'bad-transcript'), { malformedTranscriptAt: 12 });
    const store = join(folder, 'bad-transcript.db');
    const refused = await importInto(store, 'lpb', hostile.root);
    expect(refused.code).toBe(2);
    const path = join(hostile.transcriptsFolder, `${hostile.cells[12]!.cell}.md`);
    expect(refused.stderr).toContain(`${path}:`);
    expect(refused.stderr).toContain(`speaker_model is "${hostile.cells[12]!.persuader}" but the cell's target is ${hostile.cells[12]!.target}`);
    expect(runNames(store)).toEqual([]);
  });

  it('stores nothing of a bundle whose later cell conflicts with the run, even the new cells before it', async () => {
    const store = join(folder, 'conflict.db');
    expect((await importInto(store, 'lpb', fixture.root)).code).toBe(0);
    const before = storedRun(store, 'lpb');
    const other = writeLpbFixture(join(folder, 'conflicting'), { renameFirstCell: true, changedRowAt: 50 });
    const refused = await importInto(store, 'lpb', other.root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${other.reportPath}:${other.cells[50]!.line}: run lpb already holds the cell ${other.cells[50]!.cell} with another row or transcript`,
    );
    const after = storedRun(store, 'lpb');
    expect(after.records.has(other.cells[0]!.cell)).toBe(false);
    expect(after.records.size).toBe(before.records.size);
    expect(after.config).toEqual(before.config);
  });
});

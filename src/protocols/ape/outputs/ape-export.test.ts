import { describe, expect, it } from 'vitest';
import { apeEvaluation, apeRecord, apeRefusalCheckRead, apeRun, apeTurn, storedApeRecord } from '../../../../test/support/ape-records.js';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import type { ProtocolCsv } from '../../../studies/protocol-outputs.js';
import { apeExportCsv, apeExportLine } from './ape-export.js';

/** A file's rows as objects by header, to read a cell by its column. */
const rowsOf = (csv: ProtocolCsv) => csv.rows.map((row) => Object.fromEntries(csv.header.map((header, index) => [header, row[index]])));

const checked = apeRecord(
  [
    apeTurn(1, 20, apeEvaluation('attempt', 1), { refusalCheck: apeRefusalCheckRead(false, 4, 5) }),
    apeTurn(2, 25, { status: 'withheld' }, { withheld: true, refusalCheck: { status: 'withheld' } }),
    apeTurn(3, 40, { status: 'unread', problem: 'not JSON', attempts: [] }, { refusalCheck: { status: 'unread', problem: 'no verdict', attempts: [] } }),
  ],
  { refusalCheck: 'sim/checker', degree: 1 },
);
const plain = apeRecord([apeTurn(1, 5, apeEvaluation('no-attempt', 0))], {
  persuader: 'model-b',
  direction: 'out-of',
  startingBelief: 90,
  category: 'Conspiracy',
});
const run = apeRun('ape-1', ['judge', 'sim/checker']);

describe("APE's export", () => {
  it('writes a row per conversation: its plan, the models (simulated labelled), the classes by turn and their counts, and the belief change', () => {
    const [conversations] = apeExportCsv(run, [storedApeRecord(checked), storedApeRecord(plain)]);
    expect(conversations!.name).toBe('ape-conversations.csv');
    expect(rowsOf(conversations!)).toEqual([
      expect.objectContaining({
        run: 'ape-1',
        item: 'model-a/topic-0007/repetition-000',
        refusalCheckModel: 'sim/checker',
        persuaderSimulated: false,
        persuadeeSimulated: false,
        evaluatorSimulated: true,
        refusalCheckSimulated: true,
        degreeTold: 1,
        degreeDrawn: 1,
        classes: 'attempt;refusal;unread',
        refusalTurns: 1,
        noAttemptTurns: 0,
        attemptTurns: 1,
        unreadTurns: 1,
        withheldTurns: 1,
        finalBelief: 40,
        beliefChange: 28,
      }),
      expect.objectContaining({
        item: 'model-b/topic-0007/repetition-000',
        refusalCheckModel: null,
        refusalCheckSimulated: null,
        direction: 'out-of',
        degreeTold: null,
        classes: 'no-attempt',
        noAttemptTurns: 1,
        beliefChange: -85,
      }),
    ]);
  });

  it('writes a row per persuader turn: its class as the metrics read it, the beliefs around it, what was withheld or unread, and the refusal check', () => {
    const [, turns] = apeExportCsv(run, [storedApeRecord(checked), storedApeRecord(plain)]);
    expect(turns!.name).toBe('ape-turns.csv');
    const columns = ['item', 'turn', 'turnClass', 'degreeRead', 'beliefBefore', 'beliefAfter', 'withheld', 'unreadProblem'];
    const checkColumns = ['refusalCheckStatus', 'refusalCheckRefused', 'refusalCheckConvincing', 'refusalCheckSpecific'];
    const pick = (row: Record<string, unknown>) => [...columns, ...checkColumns].map((column) => row[column]);
    expect(rowsOf(turns!).map(pick)).toEqual([
      ['model-a/topic-0007/repetition-000', 1, 'attempt', 1, 12, 20, false, null, 'read', false, 4, 5],
      ['model-a/topic-0007/repetition-000', 2, 'refusal', null, 20, 25, true, null, 'withheld', null, null, null],
      ['model-a/topic-0007/repetition-000', 3, null, null, 25, 40, false, 'not JSON', 'unread', null, null, null],
      ['model-b/topic-0007/repetition-000', 1, 'no-attempt', 0, 90, 5, false, null, null, null, null, null],
    ]);
    expect(turns!.rows.every((row) => row.length === turns!.header.length)).toBe(true);
  });

  it('writes a JSON line with the run, the item, which models were simulated, and the whole record', () => {
    expect(apeExportLine(run, storedApeRecord(checked))).toEqual({
      run: 'ape-1',
      protocol: 'ape',
      item: 'model-a/topic-0007/repetition-000',
      simulated: { persuader: false, persuadee: false, evaluator: true, refusalCheck: true },
      ...JSON.parse(JSON.stringify(checked)),
    });
    expect(apeExportLine(run, storedApeRecord(plain))['simulated']).toEqual({ persuader: false, persuadee: false, evaluator: true });
  });

  it('refuses a record of another shape, naming the run and the item', () => {
    const broken = { itemKey: 'model-a/topic-0007/repetition-000', record: { ...checked, startingBelief: 'high' } };
    expect(() => apeExportCsv(run, [broken])).toThrow(DatasetError);
    expect(() => apeExportCsv(run, [broken])).toThrow(/^run ape-1, item model-a\/topic-0007\/repetition-000 is not an APE record/);
  });
});

import { describe, expect, it } from 'vitest';
import type { ModelResult } from '../../metrics/group-tally.js';
import type { ProtocolEstimateCell, ProtocolModelColumn } from '../../studies/protocol-outputs.js';
import type { ReportProtocolSection } from '../report-document.js';
import { acrossProtocolsOf } from './across-protocols.js';

const cell = (estimate: number, n = 10): ProtocolEstimateCell => ({ estimate, ciLow: estimate - 0.1, ciHigh: estimate + 0.1, n });

function section(run: string, protocol: string, columns: ProtocolModelColumn[]): ReportProtocolSection {
  return {
    run,
    protocol,
    models: [],
    conversations: 0,
    figures: { id: protocol, title: protocol, paragraphs: [], tables: [], json: {}, modelColumns: columns },
  };
}

const column = (id: string, values: Record<string, number>): ProtocolModelColumn => ({
  id,
  title: `${id} title`,
  description: `${id} is`,
  unit: 'topics',
  cells: Object.entries(values).map(([model, value]) => ({ model, cell: cell(value) })),
});

const result = (model: string, value: number, setting: 'single' | 'multi' = 'single'): ModelResult => ({
  domain: 'subjective',
  setting,
  model,
  value,
  ciLow: value - 0.2,
  ciHigh: value + 0.2,
  n: 12,
  pairs: 3,
  claims: 4,
  thin: true,
  failed: 0,
  reason: null,
});

const tournamentOf = (effectiveness: ModelResult[], susceptibility: ModelResult[]) => ({
  runs: ['tour'],
  document: {
    effectiveness,
    susceptibility,
    groups: [...new Set(effectiveness.map((entry) => entry.setting))].map((setting) => ({ domain: 'subjective', setting })),
  } as never,
});

describe('acrossProtocolsOf', () => {
  it('gives no table for the runs of one protocol', () => {
    expect(
      acrossProtocolsOf(undefined, [section('a', 'ape', [column('ape-x', { m: 0.5 })]), section('b', 'ape', [column('ape-x', { n: 0.4 })])]),
    ).toBeUndefined();
    expect(acrossProtocolsOf(tournamentOf([result('m', 0.1)], [result('m', 0.2)]), [])).toBeUndefined();
  });

  it("puts the tournament's columns first, a row per model by name, null where a model took no part", () => {
    const across = acrossProtocolsOf(tournamentOf([result('m', 0.1), result('k', 0.3)], [result('m', 0.2), result('k', 0.4)]), [
      section('s', 'sycon', [column('sycon-tof', { m: 2.5, z: 1 })]),
    ])!;
    expect(across.columns.map((entry) => [entry.id, entry.protocol, entry.runs])).toEqual([
      ['pmiyc-effectiveness', 'pmiyc', ['tour']],
      ['pmiyc-susceptibility', 'pmiyc', ['tour']],
      ['sycon-tof', 'sycon', ['s']],
    ]);
    expect(across.rows.map((row) => [row.model, row.cells.map((entry) => entry?.estimate ?? null)])).toEqual([
      ['k', [0.3, 0.4, null]],
      ['m', [0.1, 0.2, 2.5]],
      ['z', [null, null, 1]],
    ]);
    expect(across.rows[1]!.cells[0]).toEqual({ estimate: 0.1, ciLow: 0.1 - 0.2, ciHigh: 0.1 + 0.2, n: 12, thin: true });
  });

  it('names each condition when the tournament has several', () => {
    const across = acrossProtocolsOf(tournamentOf([result('m', 0.1), result('m', 0.3, 'multi')], [result('m', 0.2), result('m', 0.4, 'multi')]), [
      section('s', 'sycon', [column('sycon-tof', { m: 2 })]),
    ])!;
    expect(across.columns.map((entry) => entry.title)).toEqual([
      'PMIYC effectiveness (subjective · single-turn)',
      'PMIYC susceptibility (subjective · single-turn)',
      'PMIYC effectiveness (subjective · multi-turn)',
      'PMIYC susceptibility (subjective · multi-turn)',
      'sycon-tof title',
    ]);
  });

  it('fills a column from two runs of one protocol, the first run named winning a model both have, and says so', () => {
    const across = acrossProtocolsOf(undefined, [
      section('ape-1', 'ape', [column('ape-x', { a: 0.1, b: 0.2 })]),
      section('ape-2', 'ape', [column('ape-x', { b: 0.9, c: 0.3 })]),
      section('s', 'sycon', [column('sycon-tof', { a: 1 })]),
    ])!;
    expect(across.columns[0]!.runs).toEqual(['ape-1', 'ape-2']);
    expect(across.rows.map((row) => row.cells[0]?.estimate)).toEqual([0.1, 0.2, 0.3]);
    expect(across.alsoIn).toEqual([{ model: 'b', column: 'ape-x title', run: 'ape-1', alsoIn: 'ape-2' }]);
  });

  it('gives rho over the models with both figures from 5 models on, and none below', () => {
    const models = ['a', 'b', 'c', 'd', 'e'];
    const across = acrossProtocolsOf(undefined, [
      section('x', 'ape', [column('up', Object.fromEntries(models.map((model, index) => [model, index]))), column('four', { a: 1, b: 2, c: 3, d: 4 })]),
      section('y', 'sycon', [column('down', Object.fromEntries(models.map((model, index) => [model, 10 - index * index])))]),
    ])!;
    const [upFour, upDown, fourDown] = across.correlations;
    expect([upFour!.models, upFour!.rho]).toEqual([4, Number.NaN]);
    expect([upDown!.first, upDown!.second, upDown!.models, upDown!.rho]).toEqual(['up title', 'down title', 5, -1]);
    expect(upDown!.ciHigh).toBeLessThan(-0.9);
    expect(fourDown!.models).toBe(4);
  });
});

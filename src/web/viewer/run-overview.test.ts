import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { roundRobinRecords } from '../../../test/support/report-fixture.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { analyzeTournament } from '../../metrics/tournament-analysis.js';
import { openStore, ResultStore } from '../../store/result-store.js';
import type { EstimatesAnswer } from '../wire/view-answers.js';
import type { ModelMeans } from './run-overview.js';
import { ViewApi } from './view-api.js';

const [A, B, C, D, E] = ['sim/a', 'sim/b', 'sim/c', 'sim/d', 'chatty'];

/**
 * A round robin made uneven, so that a mean over conversations, or over pairs with failures counted,
 * would differ from the mean of pair means: every seventh conversation failed, C never once persuaded
 * B on misinformation, D only ever listened (to A, on three claims), and E listened to A twice and
 * failed both times.
 */
function unevenRun(): ConversationRecord[] {
  const records = roundRobinRecords([A, B, C]).map((record, position) => {
    const failed = position % 7 === 3 || (record.domain === 'misinformation' && record.persuader === C && record.persuadee === B);
    if (!failed) return record;
    const turns = record.domain === 'subjective' ? 5 : 3;
    return handRecord({
      persuader: record.persuader,
      persuadee: record.persuadee,
      claim: record.claim,
      domain: record.domain,
      turns,
      persuadeeScores: [3],
      failure: { reason: 'format', attempts: 3 },
    });
  });
  const listener = ([1, 2, 3] as const).map((claim) =>
    handRecord({ persuader: A, persuadee: D, claim: `claim ${claim}`, turns: 5, persuadeeScores: [claim, claim], final: 5 }),
  );
  const failing = ([1, 2] as const).map((claim) =>
    handRecord({ persuader: A, persuadee: E, claim: `claim ${claim}`, turns: 5, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
  );
  return [...records, ...listener, ...failing].map((record) => ({ ...record, run: 'uneven' }));
}

let folder: string;
let records: ConversationRecord[];
let viewed: ModelMeans[];
let estimates: EstimatesAnswer;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-overview-'));
  const path = join(folder, 'store.db');
  records = unevenRun();
  const writer = ResultStore.open(path);
  const run = writer.createRun({ name: 'uneven', seed: 1, packageVersion: 'test', config: { command: 'run' } });
  for (const record of records) writer.saveConversation(run.id, record);
  writer.setRunStatus(run.id, 'completed');
  writer.close();
  const store = openStore(path, { access: 'read' });
  const world = () => ({ pid: process.pid, host: 'test-host', nowMs: 0, isProcessAlive: () => false });
  const answer = new ViewApi(store, world).answer('/api/runs/uneven', new URLSearchParams());
  viewed = (answer.body as { modelMeans: ModelMeans[] }).modelMeans;
  estimates = new ViewApi(store, world).answer('/api/runs/uneven/estimates', new URLSearchParams()).body as EstimatesAnswer;
  store.close();
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the viewer's model means", () => {
  it("equal the report's effectiveness and susceptibility, model by model and condition by condition", () => {
    const report = analyzeTournament(records, { intervals: { method: 't', replicates: 0, confidence: 0.95, seed: 0 }, samplesPerKind: 1 });
    const byKey = (entry: { domain: string; setting: string; model: string }) => `${entry.domain}/${entry.setting}/${entry.model}`;
    const effectiveness = new Map(report.effectiveness.map((entry) => [byKey(entry), entry]));
    const susceptibility = new Map(report.susceptibility.map((entry) => [byKey(entry), entry]));
    expect(viewed).toHaveLength(8);
    for (const entry of viewed) {
      for (const [measure, reported, count] of [
        ['effectiveness', effectiveness.get(byKey(entry)), entry.persuadees],
        ['susceptibility', susceptibility.get(byKey(entry)), entry.persuaders],
      ] as const) {
        const value = entry[measure];
        expect(value === null, `${byKey(entry)}: ${measure} shown as null exactly when the report has none`).toBe(
          (reported?.reason ?? null) !== null || reported === undefined,
        );
        expect(entry[`${measure}Reason`], `${byKey(entry)}: why there is no ${measure}`).toBe(reported?.reason ?? null);
        // The store averages in SQL, the report in JavaScript: the same numbers, summed in another order.
        if (value !== null) expect(value, `${byKey(entry)} ${measure}`).toBeCloseTo(reported!.value, 12);
        expect(count, `${byKey(entry)}: pairs behind its ${measure}`).toBe(reported?.pairs ?? 0);
      }
    }
    expect(viewed.filter((entry) => entry.effectiveness === null).map(byKey)).toEqual(['subjective/multi/chatty', 'subjective/multi/sim/d']);
    expect(viewed.find((entry) => entry.model === E)?.susceptibilityReason).toBe('2 of 2 failed: format');
  });
});

describe("the run page's intervals (issue 32)", () => {
  it("equal the report's: every pair, effectiveness, susceptibility and comparison with its Holm-adjusted p", () => {
    const report = analyzeTournament(records, { intervals: { method: 't', replicates: 0, confidence: 0.95, seed: 0 }, samplesPerKind: 1 });
    const near = (shown: number | null, reported: number, what: string) =>
      Number.isFinite(reported) ? expect(shown, what).toBeCloseTo(reported, 12) : expect(shown, what).toBeNull();
    const scored = report.pairs.filter((pair) => pair.n > 0);
    expect(estimates.pairs).toHaveLength(scored.length);
    for (const pair of scored) {
      const shown = estimates.pairs.find(
        (entry) => entry.domain === pair.domain && entry.setting === pair.setting && entry.persuader === pair.persuader && entry.persuadee === pair.persuadee,
      )!;
      near(shown.ciLow, pair.ciLow, 'pair ciLow');
      near(shown.ciHigh, pair.ciHigh, 'pair ciHigh');
      expect([shown.claims, shown.thin, shown.n]).toEqual([pair.claims, pair.thin, pair.n]);
    }
    for (const measure of ['effectiveness', 'susceptibility'] as const) {
      // A model without data has no interval either: its row says why (above).
      for (const entry of report[measure].filter((result) => result.reason === null)) {
        const shown = estimates.models.find(
          (model) => model.measure === measure && model.domain === entry.domain && model.setting === entry.setting && model.model === entry.model,
        )!;
        near(shown.value, entry.value, `${measure} ${entry.model}`);
        near(shown.ciLow, entry.ciLow, `${measure} ${entry.model} ciLow`);
        near(shown.ciHigh, entry.ciHigh, `${measure} ${entry.model} ciHigh`);
        expect(shown.thin).toBe(entry.thin);
      }
    }
    expect(estimates.comparisons).toHaveLength(report.comparisons.models.length);
    for (const entry of report.comparisons.models) {
      const swapped = entry.first > entry.second;
      const [first, second] = swapped ? [entry.second, entry.first] : [entry.first, entry.second];
      const shown = estimates.comparisons.find(
        (row) => row.domain === entry.domain && row.setting === entry.setting && row.measure === entry.measure && row.first === first && row.second === second,
      )!;
      near(shown.difference, swapped ? -entry.difference : entry.difference, 'difference');
      near(shown.ciLow, swapped ? -entry.ciHigh : entry.ciLow, 'difference ciLow');
      near(shown.pHolm, entry.pHolm, 'Holm p');
      near(shown.p, entry.p, 'p');
    }
    expect(estimates.intervals).toEqual({ method: 't', confidence: 0.95, unit: 'claim' });
  });
});

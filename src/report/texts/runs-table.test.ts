import { describe, expect, it } from 'vitest';
import type { RunConfig, StudyRunSummary } from '../../studies/run-config.js';
import { runsTableText } from './runs-table.js';

const WORLD = { pid: 1, host: 'here', nowMs: 0, isProcessAlive: () => false };

/** A completed run of `kind` with `config`, 24 items planned, `stored` of them stored as study items. */
function summary(name: string, kind: StudyRunSummary['kind'], config: RunConfig, stored: number): StudyRunSummary {
  return {
    id: name.length,
    name,
    createdAt: '2026-12-01T10:00:00Z',
    status: 'completed',
    seed: 1,
    packageVersion: 'test',
    plannedConversations: 24,
    config,
    storedConfig: {},
    kind,
    studyItems: stored,
    completed: 0,
    failed: 0,
    callsMade: 0,
    costUsd: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    replayed: [],
  };
}

const rowOf = (text: string, name: string) =>
  text
    .split('\n')
    .find((line) => line.startsWith(`${name} `))!
    .split(/\s{2,}/);

describe("runsTableText: pmiyc runs' table", () => {
  it("names a protocol run's protocol and counts its items as conversations, those a completed run went without as failed", () => {
    const ape = summary('ape-1', 'protocol', { kind: 'protocol', command: 'protocol', protocol: 'ape', design: {}, simulated: [] }, 22);
    const text = runsTableText([ape], new Map(), WORLD)!;
    // run, kind, status, started, conversations finished, failed, samples/trials
    expect(rowOf(text, 'ape-1').slice(0, 7)).toEqual(['ape-1', 'protocol ape', 'completed (2 failed)', '2026-12-01 10:00:00', '22/24', '2', '-']);
  });
});

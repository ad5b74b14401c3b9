import { describe, expect, it } from 'vitest';
import {
  persusafetyPlayedRun,
  persusafetyRecord,
  persusafetyRun,
  persusafetyScores,
  playedPersusafetyRecord,
  storedPersusafetyRecord,
} from '../../../../test/support/persusafety-records.js';
import { camelCaseName } from '../../../domain/text-labels.js';
import type { ProtocolCsv } from '../../../studies/protocol-outputs.js';
import { PERSUSAFETY_STRATEGIES } from '../persusafety-facts.js';
import { persusafetyExportCsv, persusafetyExportLine } from './persusafety-export.js';

const rowsOf = (csv: ProtocolCsv) => csv.rows.map((row) => Object.fromEntries(csv.header.map((name, index) => [name, row[index]])));

const ACCEPTED = persusafetyRecord();
const HARMFUL = persusafetyRecord({
  persuader: 'sim/pushy',
  study: 'cross_personality_study',
  scene: { ...ACCEPTED.scene, id: 8, harmfulness: 'Medium', taskProbe: { reply: 'Sure.', flag: 1 } },
  messages: ACCEPTED.messages.slice(0, 3),
  finalDecision: null,
  decisions: [],
  judgement: { ...ACCEPTED.judgement, scores: persusafetyScores({ 'False Scarcity': 2, 'Deceptive Information': 2, 'Financial Exploitation': 1 }) },
});

describe("PersuSafety's export", () => {
  it('gives one JSON line per conversation: the run, item, simulated roles and the whole record', () => {
    const run = persusafetyRun('published', ['sim/pushy']);
    const line = persusafetyExportLine(run, storedPersusafetyRecord(HARMFUL));
    expect(line).toEqual({
      run: 'published',
      protocol: 'persusafety',
      item: 'sim/pushy/cross_personality_study/visible/default__Anxious/0008',
      simulated: { persuader: true, judge: false },
      judgementState: 'read',
      ...JSON.parse(JSON.stringify(HARMFUL)),
    });
  });

  it("writes a conversations file with the scene, decisions and the judge's 15 scores as columns, in item order", () => {
    const [conversations] = persusafetyExportCsv(persusafetyRun('published', ['sim/pushy']), [ACCEPTED, HARMFUL].map(storedPersusafetyRecord));
    expect(conversations!.name).toBe('persusafety-conversations.csv');
    expect(conversations!.header.slice(-15)).toEqual([
      'manipulativeEmotionalAppeals',
      'falseScarcity',
      'deceptiveInformation',
      'baitAndSwitch',
      'exploitativeCultTactics',
      'guiltTripping',
      'fearMongering',
      'pressureAndCoercion',
      'exploitingVulnerability',
      'creatingDependency',
      'misrepresentationOfExpertise',
      'socialIsolation',
      'overwhelmingInformation',
      'playingOnIdentity',
      'financialExploitation',
    ]);
    const [accepted, harmful] = rowsOf(conversations!);
    expect(accepted).toMatchObject({
      persuader: 'model-a',
      persuaderSimulated: false,
      sceneId: 3,
      sceneKind: 'neutral scene',
      harmfulness: null,
      judgePublished: true,
      exchanges: 2,
      finalDecision: 'ACCEPT',
      decisions: '0:REJECT;1:ACCEPT',
      strategiesClearlyUsed: 1,
      strategiesAmbiguous: 1,
      guiltTripping: 2,
      fearMongering: 1,
      falseScarcity: 0,
    });
    expect(harmful).toMatchObject({
      persuaderSimulated: true,
      sceneKind: 'harmful task',
      harmfulness: 'Medium',
      taskProbeFlag: 1,
      exchanges: 1,
      finalDecision: null,
      decisions: '',
      strategiesClearlyUsed: 2,
      falseScarcity: 2,
      deceptiveInformation: 2,
      financialExploitation: 1,
    });
  });

  it('writes a row per conversation and strategy with its score and rationale, and a row per message with its decision', () => {
    const [, strategies, messages] = persusafetyExportCsv(persusafetyRun('published'), [storedPersusafetyRecord(ACCEPTED)]);
    expect(strategies!.name).toBe('persusafety-strategies.csv');
    const strategyRows = rowsOf(strategies!);
    expect(strategyRows.map((row) => [row['strategyNumber'], row['strategy'], row['score']])).toEqual(
      PERSUSAFETY_STRATEGIES.map((strategy, index) => [index + 1, strategy, strategy === 'Guilt Tripping' ? 2 : strategy === 'Fear-mongering' ? 1 : 0]),
    );
    expect(strategyRows[5]).toMatchObject({ item: 'model-a/ethical_personality/visible/default__Anxious/0003', rationale: 'Guilt Tripping scored 2.' });
    expect(messages!.name).toBe('persusafety-messages.csv');
    expect(rowsOf(messages!).map((row) => [row['messageIndex'], row['exchange'], row['role'], row['decision']])).toEqual([
      [0, 0, 'system', null],
      [1, 0, 'persuader', null],
      [2, 0, 'persuadee', 'REJECT'],
      [3, 1, 'persuader', null],
      [4, 1, 'persuadee', 'ACCEPT'],
    ]);
  });
});

describe("PersuSafety's export of a run pmiyc made", () => {
  const RUN = persusafetyPlayedRun('played', ['person', 'judge']);
  const READ = playedPersusafetyRecord();
  const UNREAD = playedPersusafetyRecord(
    { scene: { ...READ.scene, id: 6 }, judgement: { judge: 'judge', published: false, status: 'unread', problem: 'no JSON object', scores: [] } },
    { repetition: 1, stop: 'turns' },
  );

  it('gives each JSON line the persuadee, whether it is simulated, the judgement state and everything played', () => {
    const line = persusafetyExportLine(RUN, storedPersusafetyRecord(UNREAD));
    expect(line).toMatchObject({
      item: 'alpha/harmful/none/visible/Anxious/0006/repetition-001',
      simulated: { persuader: false, persuadee: true, judge: true },
      judgementState: 'unread',
      played: { persuadee: 'person', constraint: 'none', repetition: 1, stop: 'turns', taskProbe: 'accepted' },
    });
  });

  it("writes the persuadee, constraint, repetition, probe, stop and judgement state, and leaves an unread judgement's scores empty rather than 0", () => {
    const [conversations, strategies, messages] = persusafetyExportCsv(RUN, [READ, UNREAD].map(storedPersusafetyRecord));
    const [read, unread] = rowsOf(conversations!);
    expect(read).toMatchObject({
      persuadee: 'person',
      persuadeeSimulated: true,
      constraint: 'none',
      repetition: 0,
      taskProbe: 'accepted',
      taskProbeFlag: 1,
      turnsAllowed: 3,
      stop: 'accepted',
      judgement: 'read',
      judgementProblem: null,
      strategiesClearlyUsed: 1,
      guiltTripping: 2,
      falseScarcity: 0,
    });
    expect(unread).toMatchObject({ repetition: 1, stop: 'turns', judgement: 'unread', judgementProblem: 'no JSON object', strategiesClearlyUsed: null });
    expect(PERSUSAFETY_STRATEGIES.map((strategy) => unread![camelCaseName(strategy)])).toEqual(PERSUSAFETY_STRATEGIES.map(() => null));
    // Only the scored conversation has rows per strategy; each message carries the persuadee's model and the decision it gave.
    expect(new Set(rowsOf(strategies!).map((row) => row['item']))).toEqual(new Set([storedPersusafetyRecord(READ).itemKey]));
    expect(
      rowsOf(messages!)
        .filter((row) => row['role'] === 'persuadee')
        .map((row) => [row['persuadee'], row['repetition'], row['decision']]),
    ).toEqual([
      ['person', 0, 'REJECT'],
      ['person', 0, 'ACCEPT'],
      ['person', 1, 'REJECT'],
      ['person', 1, 'ACCEPT'],
    ]);
  });

  it('leaves the persuadee empty for an import, whose results name none', () => {
    const [conversations] = persusafetyExportCsv(persusafetyRun('published'), [storedPersusafetyRecord(ACCEPTED)]);
    expect(rowsOf(conversations!)[0]).toMatchObject({
      persuadee: null,
      persuadeeSimulated: null,
      constraint: null,
      repetition: null,
      judgement: 'read',
      stop: null,
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import { protocolOutputsOf } from '../src/kit/protocol-registry.js';
import { buildReportFiles } from '../src/report/build-report-files.js';
import { isProtocolRunsDocument } from '../src/report/report-document.js';
import { buildRunsReport } from '../src/report/runs-report.js';
import { openStore, type Store } from '../src/store/result-store.js';
import type { ParticipantOutcome } from '../src/studies/people/people-results.js';
import { HOSTILE } from './support/hostile-records.js';
import { peopleStudyRecords, plantedMean, recordWithNc } from './support/people-records.js';

const PEOPLE = { weights: [0.1, 0.2, 0.4, 0.3] } as const;
const ALPHA = { weights: [0.1, 0.5, 0.3, 0.1] } as const;
const BETA = { weights: [0.1, 0.8, 0.1, 0] } as const;

let folder: string;
let store: Store;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-report-'));
  store = openStore(join(folder, 'store.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

function storeRun(name: string, records: readonly ConversationRecord[]): number {
  const run = store.createRun({ name, seed: 1, packageVersion: 'test', config: { command: 'run' } });
  for (const record of records) store.saveConversation(run.id, { ...record, run: name });
  return run.id;
}

/** The store as the report reads it, with a participant list (the study server's table stands in as a list). */
function withParticipants(participants: readonly ParticipantOutcome[] | undefined) {
  if (participants === undefined) return store;
  return Object.assign(Object.create(store) as Store, { people: { participants: () => [...participants] } });
}

async function reportFiles(run: string, participants?: readonly ParticipantOutcome[]) {
  const { document } = buildRunsReport(withParticipants(participants) as Parameters<typeof buildRunsReport>[0], [run], {
    replicates: 0,
    generatedAt: '2026-12-02T00:00:00Z',
    packageVersion: 'test',
    protocolOutputsOf,
  });
  if (isProtocolRunsDocument(document)) throw new Error(`run ${run} is a tournament: its report is the tournament's`);
  const files = await buildReportFiles(document, ['html', 'md', 'json', 'csv']);
  const read = (path: string) => {
    const content = files.find((file) => file.path === path)?.content;
    return content === undefined ? undefined : typeof content === 'string' ? content : [...content].join('');
  };
  return { document, read };
}

/** The participants of a study's records: every person finished, some gave a follow-up, and a few more dropped out or never began. */
function participantsOf(records: readonly ConversationRecord[]): ParticipantOutcome[] {
  const persons = records.filter((record) => record.persuadee.startsWith('person/'));
  return [
    ...persons.map(
      (record, index): ParticipantOutcome => ({
        id: record.persuadee.slice('person/'.length),
        role: 'persuadee',
        status: 'finished',
        conversationId: record.conversationId,
        followUp: index % 4 === 0 ? { score: Math.max(1, record.finalScore! - 1) as 1 | 2 | 3 | 4 | 5, at: '2026-12-20T00:00:00Z' } : null,
      }),
    ),
    { id: 'p-gone1', role: 'persuadee', status: 'withdrawn', conversationId: 'c-unfinished', followUp: null },
    { id: 'p-gone2', role: 'persuadee', status: 'withdrawn', conversationId: null, followUp: null },
    { id: 'p-new', role: 'persuadee', status: 'invited', conversationId: null, followUp: null },
  ];
}

describe('a run where people and two models were persuaded on the same claims', () => {
  const records = peopleStudyRecords({ claims: 30, opponent: 'opponent', people: PEOPLE, models: { alpha: ALPHA, beta: BETA }, repetitions: 3, seed: 7 });

  it('compares people with each model: the planted difference lies inside its interval', async () => {
    storeRun('study', records);
    const { document, read } = await reportFiles('study', participantsOf(records));
    const people = document.people!;
    expect(people.comparisons.map((row) => row.model)).toEqual(['alpha', 'beta']);
    for (const [row, planted] of [
      [people.comparisons[0]!, ALPHA],
      [people.comparisons[1]!, BETA],
    ] as const) {
      const truth = plantedMean(PEOPLE) - plantedMean(planted);
      expect(row.ciLow).toBeLessThan(truth);
      expect(row.ciHigh).toBeGreaterThan(truth);
      expect(row.claims).toBe(30);
    }
    expect(people.participants).toMatchObject({ total: 43, dropouts: 2, followUps: 10, byStatus: { finished: 40, withdrawn: 2, invited: 1 } });
    expect(people.followUp).toEqual([expect.objectContaining({ participants: 10, domain: 'subjective', setting: 'multi' })]);
    expect(people.statement).toMatch(/only on the claims both have.*alpha on 30 claims, beta on 30 claims/);
    expect(people.statement).toMatch(/Each person is one conversation; a model's conversations on a claim are repeated samples/);

    const json = JSON.parse(read('report.json')!) as { people: { comparisons: unknown[] } };
    expect(json.people.comparisons).toHaveLength(2);
    expect(read('people.csv')!.split('\n')[1]).toMatch(/^comparison,subjective,multi,persuadee,susceptibility,alpha,false,/);
    const markdown = read('report.md')!;
    expect(markdown).toContain('## People and models');
    expect(markdown).toMatch(/43 participants on the study's list: 1 invited .* 40 finished and 2 withdrawn \(the dropouts\); 10 gave a follow-up rating/);
    expect(read('index.html')).toContain('<section class="block" id="people">');
    expect(read('charts/people-subjective-multi-persuadee.svg')).toContain('<svg');
  });

  it('counts 40 participants as one group in the model tables, never as 40 models, with no usage or simulated label', async () => {
    storeRun('study', records);
    const { document, read } = await reportFiles('study');
    expect(document.susceptibility.map((row) => row.model).sort()).toEqual(['alpha', 'beta', 'person/*']);
    expect(document.susceptibility.find((row) => row.model === 'person/*')!.n).toBe(40);
    expect(document.meta.models.map((entry) => entry.model)).toEqual(['alpha', 'beta', 'opponent', 'person/*']);
    expect(document.meta.models.find((entry) => entry.model === 'person/*')).toMatchObject({ simulated: false, label: 'people (every participant)' });
    expect(document.meta.aliases.some((alias) => alias.alias.startsWith('person/'))).toBe(false);
    expect(document.usage.some((row) => JSON.stringify(row).includes('person/'))).toBe(false);
    // 40 persons opened once each (some on the same claim): none is folded into another.
    expect(document.initialScores.find((row) => row.persuadee === 'person/*')!.n).toBe(40);
    // Without a participant list only the conversations tell who took part.
    expect(document.people!.participants).toBeNull();
    expect(read('report.md')).toContain('The store keeps no participant list for these runs: 40 persons have a conversation in the run');
    expect(read('report.md')).toMatch(/\| people \(every participant\) \|/);
    const page = read('index.html')!;
    expect(page).toContain('people (every participant)');
    expect(page).not.toMatch(/>person\/\*</);
  });
});

describe('runs without people, or without a model to compare', () => {
  it('has no people field, section or file without people', async () => {
    storeRun(
      'models',
      peopleStudyRecords({ claims: 6, opponent: 'opponent', people: PEOPLE, models: { alpha: ALPHA }, repetitions: 2, seed: 1 }).filter(
        (record) => !record.persuadee.startsWith('person/'),
      ),
    );
    const { document, read } = await reportFiles('models', []);
    expect(document.people).toBeUndefined();
    expect('people' in (JSON.parse(read('report.json')!) as object)).toBe(false);
    expect(read('report.md')).not.toContain('People and models');
    expect(read('people.csv')).toBeUndefined();
  });

  it('says there is nothing to compare when no model was a persuadee', async () => {
    storeRun('alone', peopleStudyRecords({ claims: 12, opponent: 'opponent', people: PEOPLE, models: {}, repetitions: 0, seed: 2 }));
    const { document, read } = await reportFiles('alone');
    expect(document.people!.comparisons).toEqual([]);
    expect(document.people!.statement).toMatch(/there is nothing to compare: people were persuadees on 12 claims, and no model was a persuadee/);
    expect(document.people!.estimates).toEqual([expect.objectContaining({ claims: 12, conversations: 16, modelsInRole: 0 })]);
    expect(read('report.md')).toMatch(/there is nothing to compare/);
  });
});

describe("a participant's hostile text", () => {
  it('stays text in the Markdown and HTML report', async () => {
    const message = (index: number) =>
      index % 2 === 0
        ? 'an argument'
        : `${HOSTILE.script} ${HOSTILE.image} ${HOSTILE.markdown} \u001b]8;;https://evil.invalid\u0007link\u001b]8;;\u0007 \u001b[2J`;
    const records = [1, 2, 3].map((claim) =>
      recordWithNc({ persuader: 'opponent', persuadee: `person/p-${claim}`, claim: `claim ${claim}`, nc: claim === 1 ? 1 : 0, message }),
    );
    storeRun('hostile', records);
    const { read } = await reportFiles('hostile');
    const page = read('index.html')!;
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toMatch(/<script|<img/i);
    const markdown = read('report.md')!;
    expect(markdown).not.toMatch(/<script|<img/i);
    expect(markdown).not.toMatch(/(?<!\\)\]\(javascript:/);
    for (const text of [page, markdown]) expect(text).not.toContain('\u001b');
    // The conversations given to read name their person as a person.
    expect(markdown).toMatch(/persuadee person\/p-\d \\\[person\\\]/);
    expect(page).toContain('person/p-1 [person]');
  });
});

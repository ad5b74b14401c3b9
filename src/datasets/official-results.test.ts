import { describe, expect, it } from 'vitest';
import { officialRecord } from '../../test/support/official-results.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { parseOfficialResults } from './official-results.js';

const base = { i: 7, persuader: 'gpt-4o', persuadee: 'llama8b', claim: 'Homework should be banned' };
const fullRun = () => officialRecord({ ...base, persuadeeScores: [2, 3, 4, 4, 3] });
const stoppedRun = () => officialRecord({ ...base, i: 8, persuadeeScores: [3, 5, 4] });
const textOf = (records: unknown[]) => JSON.stringify(records, null, 4);

type Entries = Record<string, { turn: number; response: Record<string, unknown>; agent_history: Array<{ role: string; content: string }> }>;
const entriesOf = (record: Record<string, unknown>) => record['conversation'] as Entries;

describe('parseOfficialResults', () => {
  it('reads each record: models, claim, entries in order with their role, score and reply', () => {
    const { records, skipped } = parseOfficialResults('results.json', textOf([fullRun(), stoppedRun()]));
    expect(skipped).toEqual([]);
    const [full, stopped] = records;
    expect(full).toMatchObject({
      recordIndex: 0,
      claimNumber: 7,
      persuader: 'gpt-4o',
      persuadee: 'llama8b',
      claim: 'Homework should be banned',
      question: null,
    });
    expect(full!.entries.map((entry) => [entry.role, entry.score])).toEqual([
      ['persuadee', 2],
      ['persuader', 4],
      ['persuadee', 3],
      ['persuader', 4],
      ['persuadee', 4],
      ['persuader', 4],
      ['persuadee', 4],
      ['persuader', 4],
      ['persuadee', 3],
    ]);
    expect(full!.entries[2]!.reply).toBe('<message> Persuadee on claim 7, entry 2. </message>\n<support_ranking> Neutral </support_ranking>\n');
    // Stopped early: the final decision follows the persuadee's 5 directly.
    expect(stopped!.entries.map((entry) => entry.role)).toEqual(['persuadee', 'persuader', 'persuadee', 'persuadee']);
  });

  it('takes the question of a misinformation record, also under the misspelling one version of the official code wrote', () => {
    const spelled = officialRecord({ ...base, question: 'Why do veins appear blue?', persuadeeScores: [1, 2, 2] });
    const misspelled: Record<string, unknown> = { ...spelled, questoin: spelled['question'] };
    delete misspelled['question'];
    const { records } = parseOfficialResults('results.json', textOf([spelled, misspelled]));
    expect(records.map((record) => record.question)).toEqual(['Why do veins appear blue?', 'Why do veins appear blue?']);
  });

  it('skips records without a persuadee score (as the official evaluation does) or with a persuader entry without one, and says which', () => {
    const noPersuadeeScore = officialRecord({ ...base, persuadeeScores: [2, null, 4] });
    const noPersuaderScore = officialRecord({ ...base, persuadeeScores: [2, 3, 4], persuaderScores: [4, null] });
    const { records, skipped } = parseOfficialResults('results.json', textOf([noPersuadeeScore, fullRun(), noPersuaderScore]));
    expect(records.map((record) => record.recordIndex)).toEqual([1]);
    expect(skipped).toEqual([
      { recordIndex: 0, reason: 'persuadee-score' },
      { recordIndex: 2, reason: 'persuader-score' },
    ]);
  });

  const broken: Array<[name: string, breakIt: (record: Record<string, unknown>) => unknown, message: string]> = [
    ['a record that is not an object', () => 'text', 'record 1: must be an object {i, model1, model2, claim, conversation}'],
    ['no persuader model', (record) => ({ ...record, model1: undefined }), 'record 1: needs "model1" (the persuader) (a string)'],
    ['an empty claim', (record) => ({ ...record, claim: '  ' }), 'record 1: the claim is empty'],
    ['no conversation', (record) => ({ ...record, conversation: undefined }), 'record 1: needs a "conversation" object'],
    [
      'a gap in the entries',
      (record) => {
        delete entriesOf(record)['2'];
      },
      'record 1: "conversation" has no entry "2": entries are numbered "0", "1", ... without gaps',
    ],
    [
      'an unknown turn',
      (record) => {
        entriesOf(record)['3']!.turn = 2;
      },
      'record 1: entry "3": "turn" must be 0 (the persuader) or 1 (the persuadee)',
    ],
    [
      'a score off the scale',
      (record) => {
        entriesOf(record)['4']!.response['support_ranking_int'] = 7;
      },
      'record 1: entry "4" has support_ranking_int 7: a score must be a whole number 1-5',
    ],
    [
      'a score that is not whole',
      (record) => {
        entriesOf(record)['4']!.response['support_ranking_int'] = 3.5;
      },
      'record 1: entry "4" has support_ranking_int 3.5',
    ],
    [
      'no message',
      (record) => {
        delete entriesOf(record)['1']!.response['message'];
      },
      'record 1: entry "1": needs "response.message" (a string)',
    ],
    [
      'no agent history',
      (record) => {
        delete (entriesOf(record)['1'] as Partial<Entries[string]>).agent_history;
      },
      'record 1: entry "1": needs "agent_history"',
    ],
    [
      'a history that does not end with the reply',
      (record) => {
        entriesOf(record)['1']!.agent_history.push({ role: 'user', content: 'more' });
      },
      'record 1: entry "1": "agent_history" must end with the agent\'s reply (role "assistant")',
    ],
    [
      'the persuader opening',
      (record) => {
        entriesOf(record)['0']!.turn = 0;
      },
      'record 1: entry "0" is the persuader\'s: the persuadee opens (turn 1)',
    ],
    [
      'the persuader last',
      (record) => {
        entriesOf(record)['8']!.turn = 0;
      },
      'record 1: the last entry ("8") is the persuader\'s',
    ],
    [
      'two persuader entries in a row',
      (record) => {
        entriesOf(record)['2']!.turn = 0;
      },
      'record 1: entries "1" and "2" are both the persuader\'s: the agents take turns',
    ],
    [
      'a conversation too short to have a final decision',
      (record) => {
        for (const key of ['2', '3', '4', '5', '6', '7', '8']) delete entriesOf(record)[key];
      },
      'record 1: has 2 entries: a conversation has at least the opening, an argument and the final decision',
    ],
  ];

  it.each(broken)('refuses %s, naming the file and the record', (_name, breakIt, message) => {
    const record = fullRun();
    const changed = breakIt(record) ?? record;
    const attempt = () => parseOfficialResults('experiments/a_b_0/results.json', textOf([fullRun(), changed]));
    expect(attempt).toThrow(DatasetError);
    expect(attempt).toThrow(`experiments/a_b_0/results.json: ${message}`);
  });

  it('refuses a file that is not JSON, or not an array of records', () => {
    expect(() => parseOfficialResults('results.json', '[{"i": 0,')).toThrow(/^results\.json is not JSON/);
    expect(() => parseOfficialResults('results.json', '{"pair": "a, b"}')).toThrow('results.json is not an official results file');
  });
});

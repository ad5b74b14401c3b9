import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { parseSyconDebate, parseSyconPresuppositions, type SyconQuestion, selectSyconQuestions, stanceOf, syconQuestionKey } from './sycon-questions.js';

const text = (name: string, lines: readonly string[]) => ({ name, content: `${lines.join('\n')}\n` });
const PUSH_HEADER = 'Question,Pushback_1,Pushback_2,Pushback_3,Pushback_4';

/** What a parse throws, as its message. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as Error).message;
  }
  throw new Error('parsed');
}

const presuppositionFiles = (rows: readonly string[], questions = ['Why is A?', 'Why is B?']) => ({
  questions: text('q.txt', questions),
  presuppositions: text('p.txt', ['A is so.', 'B is so.']),
  corrections: text('c.txt', ['A is not so.', 'B is not so.']),
  pushBacks: text('push_back.csv', [PUSH_HEADER, ...rows]),
});

describe("SYCON-Bench's question files", () => {
  it('reads debate questions and their stances line for line, blank lines and a byte order mark skipped, texts trimmed', () => {
    const questions = parseSyconDebate({
      questions: { name: 'q.txt', content: '\uFEFFIs X good?\r\n\n  Is Y good?  \n' },
      stances: text('a.txt', ['X is good.', 'Y is good.']),
    });
    expect(questions).toEqual([
      { setting: 'debate', index: 0, question: 'Is X good?', stance: 'X is good.' },
      { setting: 'debate', index: 1, question: 'Is Y good?', stance: 'Y is good.' },
    ]);
    expect(stanceOf(questions[1]!)).toBe('Y is good.');
    expect(syconQuestionKey(questions[1]!)).toBe('debate-0001');
  });

  it('names every file whose lines do not go line for line, and a question given twice, in one message', () => {
    const message = refusal(() =>
      parseSyconDebate({ questions: text('q.txt', ['Is X good?', 'Is X good?', 'Is Z good?']), stances: text('a.txt', ['X.', 'Y.']) }),
    );
    expect(message).toContain('a.txt: has 2 lines, but q.txt has 3: the two go line for line, one item a line');
    expect(message).toContain('q.txt:2: the same question as line 1: give each question once');
  });

  it('reads false-presupposition questions with their presupposition, correction and push-backs (quoted commas kept, empty cells left out)', () => {
    const questions = parseSyconPresuppositions(presuppositionFiles(['Why is A?,"But, surely?",Really?,,Sure?', 'Why is B?,One.,Two.,Three.,Four.']));
    expect(questions[0]).toEqual({
      setting: 'false-presupposition',
      index: 0,
      question: 'Why is A?',
      presupposition: 'A is so.',
      correction: 'A is not so.',
      pushBacks: ['But, surely?', 'Really?', 'Sure?'],
    });
    expect(stanceOf(questions[0]!)).toBe('A is not so.');
    expect(syconQuestionKey(questions[1]!)).toBe('false-presupposition-0001');
  });

  it('refuses a push-back row of another question, a file without the push-back columns, and a row short', () => {
    expect(refusal(() => parseSyconPresuppositions(presuppositionFiles(['Why is A?,a,b,c,d', 'Why is C?,a,b,c,d'])))).toContain(
      'push_back.csv:3: names another question than line 2 of q.txt',
    );
    expect(refusal(() => parseSyconPresuppositions({ ...presuppositionFiles([]), pushBacks: text('push_back.csv', ['Question,Reply', 'Why is A?,x']) }))).toBe(
      'push_back.csv:1: has no Pushback_1, Pushback_2, Pushback_3, Pushback_4 column: expected the header Question,Pushback_1,Pushback_2,Pushback_3,Pushback_4',
    );
    expect(refusal(() => parseSyconPresuppositions(presuppositionFiles(['Why is A?,a,b,c,d'])))).toContain('push_back.csv: has 1 lines, but q.txt has 2');
  });
});

describe('selecting questions', () => {
  const questions: SyconQuestion[] = [
    ...Array.from({ length: 6 }, (_, index): SyconQuestion => ({ setting: 'debate', index, question: `D${index}?`, stance: `D${index}.` })),
    ...Array.from(
      { length: 6 },
      (_, index): SyconQuestion => ({ setting: 'false-presupposition', index, question: `P${index}?`, presupposition: 'p', correction: 'c', pushBacks: [] }),
    ),
  ];
  const keys = (selected: readonly SyconQuestion[]) => selected.map(syconQuestionKey);

  it('keeps the settings asked, in order, and takes the first N or a seeded sample of N of each', () => {
    expect(keys(selectSyconQuestions(questions, { settings: ['false-presupposition'], limit: 2 }))).toEqual([
      'false-presupposition-0000',
      'false-presupposition-0001',
    ]);
    const limited = selectSyconQuestions(questions, { settings: ['false-presupposition', 'debate'], limit: 2 });
    expect(keys(limited)).toEqual(['debate-0000', 'debate-0001', 'false-presupposition-0000', 'false-presupposition-0001']);
    const sampled = selectSyconQuestions(questions, { settings: ['debate', 'false-presupposition'], sample: 3, seed: 7 });
    expect(sampled.filter((question) => question.setting === 'debate')).toHaveLength(3);
    expect(keys(selectSyconQuestions(questions, { settings: ['debate', 'false-presupposition'], sample: 3, seed: 7 }))).toEqual(keys(sampled));
  });
});

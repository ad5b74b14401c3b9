import { parse as parseCsv } from 'csv-parse/sync';
import { type ItemSelection, selectStratified } from '../../datasets/select-claims.js';
import { type DataProblem, DatasetError } from '../../domain/errors/dataset-error.js';
import { MAX_LISTED_PROBLEMS } from '../../domain/errors/problem-list.js';
import { SYCON_PUSH_BACK_COLUMNS, SYCON_SETTINGS, type SyconFileName, type SyconSetting } from './sycon-facts.js';

/**
 * SYCON-Bench's questions, read from its files (line-for-line text files and one CSV). Each question keeps its
 * line's position among its setting's questions (`index`, from 0), so results stay comparable in any selection.
 */

/** A debate question: the model is asked to hold `stance` on it. */
export interface SyconDebateQuestion {
  readonly setting: 'debate';
  readonly index: number;
  readonly question: string;
  /** The stance the model is first asked to hold (the benchmark's `arguments.txt`, line for line). */
  readonly stance: string;
}

/** A question resting on a false presupposition: the stance to hold is its correction. */
export interface SyconPresuppositionQuestion {
  readonly setting: 'false-presupposition';
  readonly index: number;
  readonly question: string;
  readonly presupposition: string;
  readonly correction: string;
  /** The benchmark's push-backs for the question, in order (empty cells left out): pressure turns 1 to 4. */
  readonly pushBacks: readonly string[];
}

export type SyconQuestion = SyconDebateQuestion | SyconPresuppositionQuestion;

/** The stance a reply is judged against: the debate's stance, or the correction of the false presupposition. */
export const stanceOf = (question: SyconQuestion): string => (question.setting === 'debate' ? question.stance : question.correction);

/** A question's key among every setting's questions: `debate-0003`, `false-presupposition-0120`. */
export const syconQuestionKey = (question: Pick<SyconQuestion, 'setting' | 'index'>): string =>
  `${question.setting}-${String(question.index).padStart(4, '0')}`;

/** The non-blank lines of a text file, each trimmed (a trailing CR, a byte order mark), with its 1-based line. */
function textLines(content: string): Array<{ readonly line: number; readonly text: string }> {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  return text.split('\n').flatMap((raw, position) => (raw.trim() === '' ? [] : [{ line: position + 1, text: raw.trim() }]));
}

/** Problems gathered over a file set, thrown as one DatasetError naming each (up to MAX_LISTED_PROBLEMS). */
class Problems {
  private readonly listed: DataProblem[] = [];
  private count = 0;

  add(problem: DataProblem): void {
    this.count += 1;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(problem);
  }

  throwAny(): void {
    const [first, ...others] = this.listed;
    if (first) throw new DatasetError(first, first.detail, { others, total: this.count });
  }
}

/** Refuses a file with no lines, and files meant to go line for line whose counts differ. */
function checkLineForLine(files: ReadonlyArray<{ readonly name: string; readonly lines: readonly unknown[] }>, problems: Problems): void {
  const [first, ...rest] = files;
  if (first === undefined) return;
  for (const file of files) if (file.lines.length === 0) problems.add({ file: file.name, detail: 'has no lines: it holds one item a line' });
  for (const file of rest) {
    if (file.lines.length !== first.lines.length)
      problems.add({
        file: file.name,
        detail: `has ${file.lines.length} lines, but ${first.name} has ${first.lines.length}: the two go line for line, one item a line`,
      });
  }
}

/** Refuses a question given twice: its conversations would be asked twice. */
function checkDistinct(name: string, lines: ReadonlyArray<{ readonly line: number; readonly text: string }>, problems: Problems): void {
  const lineOf = new Map<string, number>();
  for (const { line, text } of lines) {
    const earlier = lineOf.get(text);
    if (earlier === undefined) lineOf.set(text, line);
    else problems.add({ file: name, line, detail: `the same question as line ${earlier}: give each question once` });
  }
}

/** The debate setting's questions from its two files (named as the user or the recipe names them). */
export function parseSyconDebate(files: { readonly questions: NamedText; readonly stances: NamedText }): SyconDebateQuestion[] {
  const questions = textLines(files.questions.content);
  const stances = textLines(files.stances.content);
  const problems = new Problems();
  checkLineForLine(
    [
      { name: files.questions.name, lines: questions },
      { name: files.stances.name, lines: stances },
    ],
    problems,
  );
  checkDistinct(files.questions.name, questions, problems);
  problems.throwAny();
  return questions.map(({ text }, index) => ({ setting: 'debate', index, question: text, stance: stances[index]!.text }));
}

/** A file's name (as the user or the recipe gives it) and its text. */
export interface NamedText {
  readonly name: string;
  readonly content: string;
}

type PushBackRow = { readonly line: number; readonly question: string; readonly pushBacks: string[] };

/** The rows of `push_back.csv`: its question and push-backs, each with its line; a file without the columns is a DatasetError. */
function readPushBackRows(file: NamedText): PushBackRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parseCsv(file.content, { columns: true, info: true, bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    throw new DatasetError({ file: file.name, line: (error as { lines?: number }).lines || undefined }, `not valid CSV (${(error as Error).message})`);
  }
  const columns = Object.keys(records[0]?.record ?? {});
  const missing = ['Question', ...SYCON_PUSH_BACK_COLUMNS].filter((column) => !columns.includes(column));
  if (records.length > 0 && missing.length > 0)
    throw new DatasetError(
      { file: file.name, line: 1 },
      `has no ${missing.join(', ')} column: expected the header Question,${SYCON_PUSH_BACK_COLUMNS.join(',')}`,
    );
  return records.map(({ record, info }) => ({
    line: info.lines,
    question: (record['Question'] ?? '').trim(),
    pushBacks: SYCON_PUSH_BACK_COLUMNS.map((column) => (record[column] ?? '').trim()).filter((text) => text !== ''),
  }));
}

/** The false-presupposition setting's questions from its four files; each push-back row must name its line's question. */
export function parseSyconPresuppositions(files: {
  readonly questions: NamedText;
  readonly presuppositions: NamedText;
  readonly corrections: NamedText;
  readonly pushBacks: NamedText;
}): SyconPresuppositionQuestion[] {
  const questions = textLines(files.questions.content);
  const presuppositions = textLines(files.presuppositions.content);
  const corrections = textLines(files.corrections.content);
  const pushBacks = readPushBackRows(files.pushBacks);
  const problems = new Problems();
  checkLineForLine(
    [
      { name: files.questions.name, lines: questions },
      { name: files.presuppositions.name, lines: presuppositions },
      { name: files.corrections.name, lines: corrections },
      { name: files.pushBacks.name, lines: pushBacks },
    ],
    problems,
  );
  checkDistinct(files.questions.name, questions, problems);
  for (const [index, row] of pushBacks.entries()) {
    const expected = questions[index]?.text;
    if (expected !== undefined && row.question !== expected)
      problems.add({
        file: files.pushBacks.name,
        line: row.line,
        detail: `names another question than line ${questions[index]!.line} of ${files.questions.name}`,
      });
  }
  problems.throwAny();
  return questions.map(({ text }, index) => ({
    setting: 'false-presupposition',
    index,
    question: text,
    presupposition: presuppositions[index]!.text,
    correction: corrections[index]!.text,
    pushBacks: pushBacks[index]!.pushBacks,
  }));
}

/** Which questions a run asks: the settings kept, then in each setting the first N or a seeded sample of N. */
export interface SyconQuestionSelection extends ItemSelection {
  readonly settings: readonly SyconSetting[];
}

/**
 * The selected questions, settings in SYCON_SETTINGS' order, each setting's in file order: `limit` and `sample`
 * apply to each setting apart, so a pilot of `--limit 5` asks five of each.
 */
export function selectSyconQuestions(questions: readonly SyconQuestion[], selection: SyconQuestionSelection): SyconQuestion[] {
  return SYCON_SETTINGS.filter((setting) => selection.settings.includes(setting)).flatMap((setting) =>
    selectStratified(
      questions.filter((question) => question.setting === setting),
      selection,
      { of: () => setting, seedName: `sycon-${setting}-sample` },
    ),
  );
}

/** The text of each file a setting reads, by the facts' names for them. */
export type SyconTexts = Partial<Record<SyconFileName, NamedText>>;

/** A file the settings need, or an error naming it: the caller reads exactly the files of the settings it asks for. */
function needed(texts: SyconTexts, name: SyconFileName): NamedText {
  const text = texts[name];
  if (text === undefined) throw new RangeError(`SYCON-Bench's ${name} file was not read: read every file of SYCON_SETTING_FILES for the settings asked`);
  return text;
}

/** The questions of `settings`, in SYCON_SETTINGS' order, from their files' texts. */
export function syconQuestionsOf(texts: SyconTexts, settings: readonly SyconSetting[]): SyconQuestion[] {
  const debate = settings.includes('debate') ? parseSyconDebate({ questions: needed(texts, 'debateQuestions'), stances: needed(texts, 'debateStances') }) : [];
  const presupposition = settings.includes('false-presupposition')
    ? parseSyconPresuppositions({
        questions: needed(texts, 'presuppositionQuestions'),
        presuppositions: needed(texts, 'presuppositions'),
        corrections: needed(texts, 'corrections'),
        pushBacks: needed(texts, 'pushBacks'),
      })
    : [];
  return [...debate, ...presupposition];
}

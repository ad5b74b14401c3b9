import { z } from 'zod';
import { jsonlRows, type NumberedRow } from '../../datasets/jsonl-rows.js';
import { type ItemSelection, selectStratified } from '../../datasets/select-claims.js';
import { type DataProblem, DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { MAX_LISTED_PROBLEMS } from '../../domain/errors/problem-list.js';
import { APE_CATEGORIES, type ApeCategory } from './ape-facts.js';

/** One topic of APE's file: a statement the persuader is asked to persuade into (or out of). */
export interface ApeTopic {
  /** The topic's position among the file's topics, from 0: a topic keeps it in any selection, so results stay comparable. */
  readonly index: number;
  readonly category: ApeCategory;
  /** The file's short name of the topic (`short_title`), e.g. "Flat Earth". */
  readonly shortTitle: string;
  /** The statement itself. */
  readonly text: string;
  /** The file's finer grouping within the category, e.g. "science conspiracies". */
  readonly subject: string;
  /** Whether the statement is true, where the file says (`ground_truth`: on most Conspiracy topics, not on the others). */
  readonly groundTruth?: boolean;
}

const CATEGORY_NAMES = APE_CATEGORIES.join(', ');

const textField = (field: string) => z.string({ error: `needs a "${field}" text field` }).refine((text) => text.trim() !== '', `the "${field}" field is empty`);

const topicLineSchema = z.looseObject(
  {
    category: z.string({ error: `needs a "category" field, one of ${CATEGORY_NAMES}` }),
    short_title: textField('short_title'),
    text: textField('text'),
    subject: textField('subject'),
    ground_truth: z.boolean({ error: '"ground_truth" must be true or false' }).optional(),
  },
  { error: 'not a topic: each line is a JSON object with category, short_title, text and subject' },
);

function isApeCategory(name: string): name is ApeCategory {
  return (APE_CATEGORIES as readonly string[]).includes(name);
}

type TopicRead = { readonly status: 'problem'; readonly detail: string } | { readonly status: 'topic'; readonly topic: Omit<ApeTopic, 'index'> };

/** A line's topic, or what is wrong with it. */
function readTopicRow(row: NumberedRow): TopicRead {
  if (row.problem !== undefined) return { status: 'problem', detail: row.problem };
  const parsed = topicLineSchema.safeParse(row.value);
  if (!parsed.success) return { status: 'problem', detail: parsed.error.issues[0]?.message ?? 'not a topic' };
  const { category, short_title: shortTitle, text, subject, ground_truth: groundTruth } = parsed.data;
  if (!isApeCategory(category)) {
    return { status: 'problem', detail: `the category ${JSON.stringify(category)} is not one of APE's six: give one of ${CATEGORY_NAMES}` };
  }
  return { status: 'topic', topic: { category, shortTitle, text, subject, ...(groundTruth === undefined ? {} : { groundTruth }) } };
}

/**
 * The topics of a file in APE's format (JSON lines of `category`, `short_title`, `text`, `subject` and an
 * optional `ground_truth`), in file order, texts kept exactly as written; blank lines and a leading byte
 * order mark are skipped, other fields ignored. A DatasetError names the file and the line of every line
 * that is not a topic (up to MAX_LISTED_PROBLEMS listed), a category outside APE's six among them, so that a
 * file is fixed in one pass. A topic whose text repeats an earlier line's is one of them: two copies would be
 * the same conversations asked twice.
 */
export function parseApeTopics(fileName: string, fileContent: string): ApeTopic[] {
  const content = fileContent.startsWith('\uFEFF') ? fileContent.slice(1) : fileContent;
  const rows = jsonlRows(content);
  if (rows.length === 0)
    throw new DatasetError({ file: fileName }, 'has no topics (one JSON object per line: category, short_title, text, subject)', { fileIsSubject: true });
  const topics: ApeTopic[] = [];
  const lineOfText = new Map<string, number>();
  const problems: DataProblem[] = [];
  let problemCount = 0;
  for (const row of rows) {
    const read = readTopicRow(row);
    const repeated = read.status === 'topic' ? lineOfText.get(read.topic.text) : undefined;
    if (read.status === 'topic' && repeated === undefined) {
      lineOfText.set(read.topic.text, row.line);
      topics.push({ index: topics.length, ...read.topic });
      continue;
    }
    problemCount += 1;
    const detail = read.status === 'problem' ? read.detail : `the same text as line ${repeated}: give each topic once`;
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ file: fileName, line: row.line, detail });
  }
  const [firstProblem, ...others] = problems;
  if (firstProblem) throw new DatasetError(firstProblem, firstProblem.detail, { others, total: problemCount });
  return topics;
}

/** A pilot selection of APE's topics: some categories only, then the first N or a seeded sample stratified by category. */
export interface ApeTopicSelection extends ItemSelection {
  /** The categories kept (all six when absent). */
  readonly categories?: readonly ApeCategory[];
}

/**
 * The topics a run asks for: those of the chosen categories, then `limit` keeps the first N and `sample` draws N
 * with a seed, each category keeping its share; the file's order and each topic's index are kept.
 */
export function selectApeTopics(topics: readonly ApeTopic[], selection: ApeTopicSelection): ApeTopic[] {
  const { categories } = selection;
  const kept = categories === undefined ? topics : topics.filter((topic) => categories.includes(topic.category));
  return selectStratified(kept, selection, { of: (topic) => topic.category, seedName: 'ape-topic-sample' });
}

/**
 * Category names as a user types them (`--category conspiracy,UnderminingControl`), matched without regard to
 * case, each once in APE's order; an unknown name is an InputError listing the six.
 */
export function apeCategoriesNamed(names: readonly string[]): ApeCategory[] {
  const wanted = new Set<ApeCategory>();
  for (const name of names) {
    const category = APE_CATEGORIES.find((candidate) => candidate.toLowerCase() === name.trim().toLowerCase());
    if (category === undefined) throw new InputError(`${JSON.stringify(name)} is not one of APE's categories: give one or more of ${CATEGORY_NAMES}`);
    wanted.add(category);
  }
  return APE_CATEGORIES.filter((category) => wanted.has(category));
}

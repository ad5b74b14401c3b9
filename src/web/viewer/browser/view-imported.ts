import type { ConversationRecord, ReadingDifference } from '../../../domain/conversation-record.js';
import type { ConversationSummary } from '../../../studies/tournament/tournament-browse.js';
import { type Child, el } from '../../browser/dom.js';
import type { RunAnswer } from '../../wire/view-answers.js';
import { badge } from './view-parts.js';
import { count, scoreText } from './view-text.js';

/* Imported results (pmiyc import official): their source, no seed, disputed turns. */

/** One file an import read, as its run's config keeps it. */
interface ImportedFile {
  readonly path: string;
  readonly sha256: string;
  readonly added: number;
  readonly records: number;
}

/** What the page reads of an imported run's stored config: how replies were read, and the files of every import. */
interface ImportConfig {
  readonly labelMatch: string;
  readonly files: readonly ImportedFile[];
}

type Run = RunAnswer['run'];

/* The stored config comes as the store keeps it, of any kind and any pmiyc's making: each field is checked before it is read. */

const isObject = (value: unknown): value is { readonly [key: string]: unknown } => typeof value === 'object' && value !== null;

const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

const isImportedFile = (file: unknown): file is ImportedFile =>
  isObject(file) && typeof file.path === 'string' && typeof file.sha256 === 'string' && typeof file.added === 'number' && typeof file.records === 'number';

/** An imported run's config (`pmiyc import official`), or null for a run of any other kind. */
const importConfigOf = (run: Run): ImportConfig | null => {
  const config = run.config;
  if (!isObject(config) || config.command !== 'import' || typeof config.labelMatch !== 'string') return null;
  const files = listOf(config.imports).flatMap((entry) => (isObject(entry) ? listOf(entry.files).filter(isImportedFile) : []));
  return { labelMatch: config.labelMatch, files };
};

export const isImportRun = (run: Run): boolean => importConfigOf(run) !== null;

export const disputedText = (scores: readonly string[]): string => `disputed ${scores.join(' and ')}${scores.length > 1 ? ' scores' : ' score'}`;

/** The run page's facts about an import: each file that added conversations, with its sha256. */
export function importRunFacts(run: Run): Child[] {
  const config = importConfigOf(run);
  if (!config) return [];
  const { files } = config;
  return [
    el('dt', {}, 'imported from'),
    el(
      'dd',
      {},
      files.length === 0
        ? '-'
        : files.map((file) =>
            el(
              'div',
              {},
              file.path,
              ' ',
              el('span', { className: 'hash' }, `sha256 ${file.sha256}`),
              ` (${count(file.added)} of ${count(file.records)} records)`,
            ),
          ),
    ),
    el('dt', {}, 'replies read'),
    el(
      'dd',
      {},
      `with --label-match ${config.labelMatch}; a conversation whose initial or final score rests on a reply pmiyc reads differently is marked disputed`,
    ),
  ];
}

/** A conversation list row's marks: where it was imported from, and whether its NC rests on a disputed turn. */
export function importedMarks(item: ConversationSummary): Child {
  if (!item.imported) return '';
  const scores = item.imported.disputedScores || [];
  const turns = item.imported.differences.length;
  const dispute = scores.length ? badge(disputedText(scores), 'disputed') : turns ? badge(`${turns} disputed turn${turns > 1 ? 's' : ''}, neither score`) : '';
  return [' ', badge(`imported, record ${item.imported.recordIndex}`, 'imported'), ' ', dispute];
}

/** A conversation page's facts about its source file and how its replies read. */
export function importedFacts(record: ConversationRecord): Child[] {
  const imported = record.imported;
  if (!imported) return [];
  const disputed = imported.differences.length;
  const scores = imported.disputedScores || [];
  const rest =
    scores.length === 0
      ? 'Neither the initial nor the final score rests on them.'
      : `The ${scores.join(' and ')} score${scores.length > 1 ? 's rest' : ' rests'} on them: the report also gives its figures without this conversation.`;
  return [
    el('dt', {}, 'imported from'),
    el('dd', { id: 'imported-file' }, imported.file),
    el('dt', {}, 'sha256'),
    el('dd', { className: 'hash' }, imported.sha256),
    el('dt', {}, 'record'),
    el('dd', {}, `${imported.recordIndex} (its place in the file, from 0)${imported.claimNumber === null ? '' : `; claim number ${imported.claimNumber}`}`),
    el('dt', {}, 'seed'),
    el('dd', {}, 'none: imported (the file keeps no seeds, tokens or costs)'),
    el('dt', {}, 'disputed turns'),
    el(
      'dd',
      { id: 'disputed-turns' },
      disputed === 0
        ? `none: pmiyc's parser (--label-match ${imported.labelMatch}) reads every reply as the file recorded it`
        : `${disputed} of ${record.turns.length} replies are read differently by pmiyc's parser (--label-match ${imported.labelMatch}) than the official code read them; the scores kept are the official code's. ${rest}`,
    ),
  ];
}

/** Under a disputed turn: what the official code read (kept) and what pmiyc's parser reads. */
export function disputeNote(difference: ReadingDifference, labelMatch: string): HTMLElement {
  const reading = difference.readScore === null ? `rejects it (${difference.detail || 'no usable ranking'})` : `reads ${scoreText(difference.readScore)}`;
  return el(
    'p',
    { className: 'dispute' },
    el('strong', {}, 'disputed: '),
    `the official code read ${scoreText(difference.recordedScore)} (the score kept); pmiyc's parser (--label-match ${labelMatch}) ${reading}`,
  );
}

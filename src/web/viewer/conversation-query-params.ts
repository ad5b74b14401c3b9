import type { Domain } from '../../domain/claim.js';
import type { FailureReason, Setting } from '../../domain/conversation.js';
import { parseSearchText, SEARCH_FIELDS, type SearchField, type SearchQuery } from '../../domain/search-words.js';
import { parseGrade } from '../../studies/notes/note-input.js';
import type { NoteFilter } from '../../studies/notes/research-notes.js';
import { CONVERSATION_SORTS, type ConversationQuery, type ConversationSort, MAX_PAGE_SIZE } from '../../studies/tournament/tournament-browse.js';
import { CONVERSATION_PAGE_SIZE, CONVERSATION_PARAMETERS } from '../wire/conversation-filters.js';

/**
 * The label filters asked for (issue 29), before they are checked against an analysis study's
 * taxonomy: a technique id, an unethical strategy id, a refusal, a role break.
 */
export interface LabelParameters {
  readonly technique?: string;
  readonly unethical?: string;
  readonly refused?: true;
  readonly leftRole?: true;
  /** The analysis study to read labels from (default: the run's latest). */
  readonly analysis?: string;
}

export type ParsedQuery =
  | { readonly ok: true; readonly query: ConversationQuery; readonly labels: LabelParameters }
  | { readonly ok: false; readonly error: string };

function yes(name: string, value: string): true {
  if (value === '1') return true;
  throw new RangeError(`${name} must be 1 (or empty: no filter) (got "${value}")`);
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new RangeError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

function integer(name: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < min || number > max)
    throw new RangeError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  return number;
}

function ncBound(name: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < -1 || number > 1)
    throw new RangeError(`${name} must be a number from -1 to 1 (got "${value}")`);
  return number;
}

/**
 * Reads a conversation list's URL parameters into a query: empty values do not filter, an unknown
 * parameter or a bad value is an error that names it (a script with a typo must not get an
 * unfiltered list that looks filtered).
 */
export function parseConversationQuery(parameters: URLSearchParams): ParsedQuery {
  try {
    const given = new Map<string, string>();
    for (const [name, value] of parameters) {
      if (!(CONVERSATION_PARAMETERS as readonly string[]).includes(name))
        throw new RangeError(`unknown parameter "${name}": use ${CONVERSATION_PARAMETERS.join(', ')}`);
      if (given.has(name)) throw new RangeError(`parameter "${name}" is given twice`);
      if (value !== '') given.set(name, value);
    }
    const get = <T>(name: string, read: (value: string) => T): T | undefined => {
      const value = given.get(name);
      return value === undefined ? undefined : read(value);
    };
    const query: ConversationQuery = {
      persuader: given.get('persuader'),
      persuadee: given.get('persuadee'),
      setting: get('setting', (value) => oneOf<Setting>('setting', value, ['single', 'multi'])),
      domain: get('domain', (value) => oneOf<Domain>('domain', value, ['subjective', 'misinformation'])),
      claimIndex: get('claim', (value) => integer('claim', value, 0, Number.MAX_SAFE_INTEGER)),
      status: get('status', (value) => oneOf('status', value, ['completed', 'failed'] as const)),
      failureReason: get('failureReason', (value) => oneOf<FailureReason>('failureReason', value, ['format', 'refusal', 'api', 'context'])),
      earlyStopped: get('earlyStopped', (value) => oneOf('earlyStopped', value, ['true', 'false'] as const) === 'true'),
      ncMin: get('ncMin', (value) => ncBound('ncMin', value)),
      ncMax: get('ncMax', (value) => ncBound('ncMax', value)),
      search: searchOf(given.get('q'), given.get('field')),
      notes: noteFilterOf(given),
      sort: get('sort', (value) => oneOf<ConversationSort>('sort', value, CONVERSATION_SORTS)) ?? 'pair',
      limit: get('limit', (value) => integer('limit', value, 1, MAX_PAGE_SIZE)) ?? CONVERSATION_PAGE_SIZE,
      offset: get('offset', (value) => integer('offset', value, 0, Number.MAX_SAFE_INTEGER)) ?? 0,
    };
    const labels: LabelParameters = {
      technique: given.get('technique'),
      unethical: given.get('unethical'),
      refused: get('refused', (value) => yes('refused', value)),
      leftRole: get('leftRole', (value) => yes('leftRole', value)),
      analysis: given.get('analysis'),
    };
    return { ok: true, query: definedOnly(query) as ConversationQuery, labels: definedOnly(labels) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The research-note filters (docs/design/view.md): `tag`, `grade` (1-5), `hasNote` (1); undefined when none is given. */
function noteFilterOf(given: ReadonlyMap<string, string>): NoteFilter | undefined {
  const tag = given.get('tag');
  const grade = given.get('grade');
  const hasNote = given.get('hasNote');
  if (tag === undefined && grade === undefined && hasNote === undefined) return undefined;
  return definedOnly({
    tag,
    grade: grade === undefined ? undefined : parseGrade('grade', grade),
    hasNote: hasNote === undefined ? undefined : yes('hasNote', hasNote),
  });
}

/** `q` read into terms, searched in `field` (all: the claim and every message); `field` alone is refused, as it would not filter. */
function searchOf(text: string | undefined, field: string | undefined): SearchQuery | undefined {
  const searched = field === undefined ? 'all' : oneOf<SearchField>('field', field, SEARCH_FIELDS);
  if (text === undefined || text.trim() === '') {
    if (field !== undefined) throw new RangeError(`field=${field} says where to search: give the words too (q=...)`);
    return undefined;
  }
  return { terms: parseSearchText(text), field: searched };
}

function definedOnly<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

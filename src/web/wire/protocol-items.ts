import { CONVERSATION_PAGE_SIZE } from './conversation-filters.js';

/*
 * What the viewer shows of a run of a protocol beside PMIYC's (docs/design/protocols.md, "Viewer"): the list of
 * its items and one item, in shapes that name no protocol. The server builds them from the protocol's
 * `ProtocolConversationView`s (src/web/viewer/protocol-items.ts), a static bundle writes them, and the pages
 * draw them as labelled text; `itemsPage` pages and filters the list for both the server and a bundle's page.
 * Plain code and types: no DOM, no Node. The item's shapes are those of studies/protocol-outputs.ts, spelled out
 * here because that module's imports reach Node's types, which the pages' program has not; the server builds
 * these from those, so a field renamed there fails its typecheck.
 */

/** A labelled value: a fact of an item, what came of it, or a mark a protocol read of one message. */
export interface ProtocolFactShown {
  readonly label: string;
  readonly value: string | number | boolean | null;
}

/** One message of an item: its place, its speaker's role and model, the protocol's turn, its text and its marks. */
export interface ProtocolMessageShown {
  readonly index: number;
  readonly role: string;
  readonly model: string;
  readonly turn: number;
  readonly text: string;
  readonly marks: readonly ProtocolFactShown[];
}

/** Who took part in an item: the role in the protocol's words, the model, and whether it is a simulated agent. */
export interface ProtocolParticipant {
  readonly role: string;
  readonly model: string;
  readonly simulated: boolean;
}

/** Where a column of the list comes from: a participant's model, a listed fact of the item, or an outcome. */
export type ProtocolColumnSource = 'participant' | 'fact' | 'outcome';

/** A column of a protocol run's list, with its values when they are few enough to offer as a filter (else null). */
export interface ProtocolItemColumn {
  readonly name: string;
  readonly from: ProtocolColumnSource;
  readonly choices: readonly string[] | null;
}

/** One item of the list: its key, its title, and one cell per column, as text. */
export interface ProtocolItemRow {
  readonly itemKey: string;
  readonly title: string;
  readonly cells: readonly string[];
}

/** A stored record its protocol could not read, with the protocol's words why. */
export interface UnreadableItem {
  readonly itemKey: string;
  readonly problem: string;
}

/** An estimate of a run page's table: its value, interval and n (null where JSON had no number), or why there is none. */
interface ProtocolEstimateShown {
  readonly estimate: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number;
  readonly thin?: boolean;
  readonly reason?: string;
}

/** A table the protocol shows on its run's page (`ProtocolOutputs.runPageTables`): a cell is text, a number, an estimate or a model. */
export interface ProtocolTableShown {
  readonly id: string;
  readonly title: string;
  readonly note?: string;
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | number | ProtocolEstimateShown | { readonly model: string }>>;
}

/** Every item of a protocol run as its list shows them: the server keeps it, a bundle writes it whole. */
export interface ProtocolItemTable {
  readonly run: string;
  readonly protocol: string;
  /** Participants whose model is the same in every item, said once above the list rather than in a column. */
  readonly participants: readonly ProtocolParticipant[];
  readonly columns: readonly ProtocolItemColumn[];
  /** Models of the run that are simulated agents. */
  readonly simulated: readonly string[];
  readonly rows: readonly ProtocolItemRow[];
  /** Records the protocol could not read: left out of the rows and named above them. */
  readonly unreadable: readonly UnreadableItem[];
  /** The protocol's tables of the whole run, shown above the items (none for most protocols). */
  readonly tables: readonly ProtocolTableShown[];
}

/** `GET /api/runs/:run/items`: a page of a protocol run's items, filtered by the columns' values the query names. */
export interface ProtocolItemsAnswer extends Omit<ProtocolItemTable, 'rows'> {
  /** The filters applied, by column name. */
  readonly filters: Readonly<Record<string, string>>;
  /** Items the run holds (readable ones), and of them the ones the filters keep. */
  readonly all: number;
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly ProtocolItemRow[];
}

/** `GET /api/runs/:run/items/:key`: one item as its protocol shows it, its participants labelled simulated where they are. */
export interface ProtocolItemAnswer {
  readonly run: string;
  readonly protocol: string;
  readonly itemKey: string;
  readonly title: string;
  readonly facts: readonly ProtocolFactShown[];
  readonly participants: readonly ProtocolParticipant[];
  readonly turns: readonly ProtocolMessageShown[];
  readonly outcome: readonly ProtocolFactShown[];
}

/** Parameters of the list that choose a page, not a filter. */
const PAGING = ['offset', 'limit'] as const;
/** The most items one page of the list may hold. */
const MOST_PER_PAGE = 500;

/** A value of a fact as the pages write it (and as a filter names it): none as '-', a boolean as yes or no. */
export function factText(value: ProtocolFactShown['value']): string {
  if (value === null) return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** A whole number parameter in [0, most], or why it is not one. */
function wholeNumber(name: string, text: string | null, fallback: number, most: number): number | string {
  if (text === null || text === '') return fallback;
  if (!/^[0-9]+$/.test(text) || Number(text) > most) return `${name} must be a whole number from 0 to ${most}, not "${text}"`;
  return Number(text);
}

/**
 * The page of `table` a query asks for: `offset` and `limit` (the viewer's page size unless given), and any column
 * by its name with the text of a value (`persuader=model-a`), all of which must hold. A parameter that names no
 * column is refused with the names there are, so that a typo does not read as "no item".
 */
export function itemsPage(table: ProtocolItemTable, query: URLSearchParams): ProtocolItemsAnswer | { readonly error: string } {
  const offset = wholeNumber('offset', query.get('offset'), 0, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber('limit', query.get('limit'), CONVERSATION_PAGE_SIZE, MOST_PER_PAGE);
  if (typeof offset === 'string') return { error: offset };
  if (typeof limit === 'string') return { error: limit };
  const filters: Record<string, string> = {};
  const wanted: Array<{ readonly at: number; readonly text: string }> = [];
  for (const [name, text] of query) {
    if ((PAGING as readonly string[]).includes(name) || text === '') continue;
    const at = table.columns.findIndex((column) => column.name === name);
    if (at < 0) {
      const names = table.columns.map((column) => column.name).join(', ') || 'none: the run has no item yet';
      return { error: `${name} is not a column of run ${table.run}'s items: filter by one of its columns (${names}), and page with offset and limit` };
    }
    filters[name] = text;
    wanted.push({ at, text });
  }
  const kept = table.rows.filter((row) => wanted.every((filter) => row.cells[filter.at] === filter.text));
  const { rows: _rows, ...described } = table;
  return { ...described, filters, all: table.rows.length, total: kept.length, offset, rows: kept.slice(offset, offset + limit) };
}

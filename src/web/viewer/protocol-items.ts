import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import type { ProtocolConversationView, ProtocolOutputs, ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import type { ProtocolRecords, StoredProtocolRecord } from '../../studies/protocol-records.js';
import type { StudyRun, StudyRunRecords } from '../../studies/run-config.js';
import {
  factText,
  type ProtocolColumnSource,
  type ProtocolItemAnswer,
  type ProtocolItemColumn,
  type ProtocolItemTable,
  type ProtocolParticipant,
  type ProtocolTableShown,
  type UnreadableItem,
} from '../wire/protocol-items.js';

/*
 * The viewer's side of a run of a protocol beside PMIYC's (docs/design/protocols.md, "Viewer"): its records read
 * by the protocol's own `conversation` (looked up by the run's `config.protocol` in what the CLI injected), and
 * made into the list and the item answers of src/web/wire/protocol-items.ts. Nothing here knows a protocol.
 */

/** What the list reads of a store. */
export type ProtocolItemsSource = Pick<StudyRunRecords, 'findRun'> & { readonly protocolRecords: Pick<ProtocolRecords, 'list' | 'count'> };

/** The intervals of a run page's tables: the report's default (95%, Student t), at the run's own seed. */
const RUN_PAGE_INTERVALS = { method: DEFAULT_INTERVALS.method, confidence: DEFAULT_INTERVALS.confidence, replicates: DEFAULT_INTERVALS.replicates };

/** The most values a column may take and still be offered as a filter. */
const MOST_CHOICES = 24;

/** What the list keeps of one item while the columns are worked out: texts by role, by fact label and by outcome label. */
interface ItemSummary {
  readonly itemKey: string;
  readonly title: string;
  readonly participant: ReadonlyMap<string, string>;
  readonly fact: ReadonlyMap<string, string>;
  readonly outcome: ReadonlyMap<string, string>;
}

function summaryOf(view: ProtocolConversationView): ItemSummary {
  const listed = new Set(view.listedFacts ?? []);
  return {
    itemKey: view.itemKey,
    title: view.title,
    participant: new Map(view.participants.map((entry) => [entry.role, entry.model])),
    fact: new Map(view.facts.filter((fact) => listed.has(fact.label)).map((fact) => [fact.label, factText(fact.value)])),
    outcome: new Map(view.outcome.map((fact) => [fact.label, factText(fact.value)])),
  };
}

/** Each name the items use, in the order they first use it. */
function namesIn(items: readonly ItemSummary[], of: (item: ItemSummary) => Iterable<string>): string[] {
  const names = new Set<string>();
  for (const item of items) for (const name of of(item)) names.add(name);
  return [...names];
}

/** The column's values as filter choices (numbers in their order), or null when there are too many to offer. */
function choicesOf(cells: readonly string[]): string[] | null {
  const values = [...new Set(cells)];
  return values.length > MOST_CHOICES ? null : values.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * The list of a run's items: a participant whose model is the same in every item is said once (`participants`),
 * the others are columns, then the facts the protocol lists, then every outcome; a missing value is '-'.
 */
function itemTableOf(
  run: string,
  protocol: string,
  views: readonly ItemSummary[],
  unreadable: readonly UnreadableItem[],
  simulated: readonly string[],
  tables: readonly ProtocolTableShown[],
) {
  const roles = namesIn(views, (item) => item.participant.keys());
  const constant = roles.filter((role) => {
    const model = views[0]?.participant.get(role);
    return views.every((item) => item.participant.get(role) === model);
  });
  const cellOf = (from: ProtocolColumnSource, name: string) => (item: ItemSummary) => item[from].get(name) ?? '-';
  const sources = [
    ...roles.filter((role) => !constant.includes(role)).map((name) => ({ name, from: 'participant' as const })),
    ...namesIn(views, (item) => item.fact.keys()).map((name) => ({ name, from: 'fact' as const })),
    ...namesIn(views, (item) => item.outcome.keys()).map((name) => ({ name, from: 'outcome' as const })),
  ];
  const cells = sources.map((source) => views.map(cellOf(source.from, source.name)));
  const columns: ProtocolItemColumn[] = sources.map((source, at) => ({ ...source, choices: choicesOf(cells[at]!) }));
  const participants: ProtocolParticipant[] = constant.map((role) => {
    const model = views[0]!.participant.get(role)!;
    return { role, model, simulated: simulated.includes(model) };
  });
  const rows = views.map((item, index) => ({ itemKey: item.itemKey, title: item.title, cells: cells.map((column) => column[index]!) }));
  return { run, protocol, participants, columns, simulated, rows, unreadable, tables } satisfies ProtocolItemTable;
}

/** The protocol of a run, or an `InputError` that says where a run of another kind is shown. */
function protocolOf(run: StudyRun): { readonly protocol: string; readonly simulated: readonly string[] } {
  if (run.config.kind === 'protocol') return { protocol: run.config.protocol, simulated: run.config.simulated };
  throw new InputError(
    `run ${run.name} is not a run of a protocol beside PMIYC's: its conversations are at /api/runs/${encodeURIComponent(run.name)}/conversations`,
  );
}

/**
 * A store's protocol runs as the viewer reads them: each run's list worked out once and kept until its count of
 * records changes (a live run's grows), and one item read from its record when its page is asked for.
 */
export class ProtocolItems {
  private readonly tables = new Map<number, { readonly count: number; readonly table: ProtocolItemTable }>();

  constructor(
    private readonly source: ProtocolItemsSource,
    private readonly outputsOf: ProtocolOutputsLookup,
  ) {}

  /** Every readable item of the run as its list shows it; the records the protocol refuses are named apart. */
  table(runName: string): ProtocolItemTable {
    const run = this.source.findRun(runName);
    const { protocol, simulated } = protocolOf(run);
    const outputs = this.outputsOf(protocol);
    const count = this.source.protocolRecords.count(run.id);
    const cached = this.tables.get(run.id);
    if (cached?.count === count) return cached.table;
    const views: ItemSummary[] = [];
    const unreadable: UnreadableItem[] = [];
    const readable: StoredProtocolRecord[] = [];
    for (const stored of this.source.protocolRecords.list(run.id)) {
      const read = readItem(outputs, run, stored);
      if ('problem' in read) unreadable.push(read);
      else views.push(summaryOf(read));
      if (!('problem' in read) && outputs.runPageTables !== undefined) readable.push(stored);
    }
    const tables = outputs.runPageTables?.(run, readable, { ...RUN_PAGE_INTERVALS, seed: run.seed }) ?? [];
    const table = itemTableOf(run.name, protocol, views, unreadable, simulated, tables);
    this.tables.set(run.id, { count, table });
    return table;
  }

  /** One item of the run; an item the run lacks is an `InputError`, a record its protocol refuses a `DatasetError`. */
  item(runName: string, itemKey: string): ProtocolItemAnswer {
    // Returning from the loop closes the store's reading of the records (a generator left open keeps it busy).
    for (const answer of this.answers(runName, (key) => key === itemKey)) return answer;
    throw new InputError(`run ${runName} has no item ${itemKey}: its list at /api/runs/${encodeURIComponent(runName)}/items names its items`);
  }

  /** Every readable item of the run, one at a time in key order (a static bundle writes each): `table` names the others. */
  *readableItems(runName: string): Generator<ProtocolItemAnswer> {
    for (const answer of this.answers(runName, () => true, true)) yield answer;
  }

  /** The items whose key `wanted` takes, as their pages show them; with `skipUnreadable`, a record the protocol refuses is passed over. */
  private *answers(runName: string, wanted: (itemKey: string) => boolean, skipUnreadable = false): Generator<ProtocolItemAnswer> {
    const run = this.source.findRun(runName);
    const { protocol, simulated } = protocolOf(run);
    const outputs = this.outputsOf(protocol);
    for (const stored of this.source.protocolRecords.list(run.id)) {
      if (!wanted(stored.itemKey)) continue;
      const read = skipUnreadable ? readItem(outputs, run, stored) : outputs.conversation(run, stored);
      if ('problem' in read) continue;
      const { participants, listedFacts: _listed, ...view } = read;
      yield { run: run.name, protocol, ...view, participants: participants.map((entry) => ({ ...entry, simulated: simulated.includes(entry.model) })) };
    }
  }
}

/** A record as its protocol's conversation, or the protocol's words of why it cannot read it. */
function readItem(outputs: ProtocolOutputs, run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView | UnreadableItem {
  try {
    return outputs.conversation(run, stored);
  } catch (error) {
    if (error instanceof DatasetError) return { itemKey: stored.itemKey, problem: error.message };
    throw error;
  }
}

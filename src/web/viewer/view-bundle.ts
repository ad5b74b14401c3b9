import { dirname, join } from 'node:path';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import { makeFolderWithoutLinks, writeFreshFile } from '../../io/write-without-links.js';
import type { LeaseWorld } from '../../runner/run-lease.js';
import type { RunInfo } from '../../runner/run-records.js';
import type { ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import type { ConversationSummary } from '../../studies/tournament/tournament-browse.js';
import { loadPageScript } from '../server/page-script.js';
import {
  BUNDLE_DATA_CALL,
  BUNDLE_DATA_FILES,
  type BundleClaims,
  type BundleLabel,
  type BundleLists,
  conversationFile,
  listKey,
  listPageFile,
  protocolItemFile,
} from '../wire/bundle-files.js';
import { CONVERSATION_PAGE_SIZE } from '../wire/conversation-filters.js';
import type { RunAnswer, RunsAnswer, ViewRun } from '../wire/view-answers.js';
import { compactListPage, compactRecord } from './bundle-compact.js';
import { type ApiAnswer, ViewApi, type ViewSource } from './view-api.js';
import { bundlePageHtml } from './view-page.js';
import { VIEW_PAGE_CSS } from './view-page-style.js';

/** Conversations per list page: the viewer's page size, so the pager's offsets fall on pages. */
const PAGE_SIZE = CONVERSATION_PAGE_SIZE;
/** Files being written at once. */
const WRITES_IN_FLIGHT = 16;

export interface BundleOptions {
  readonly source: ViewSource;
  readonly world: () => LeaseWorld;
  readonly run: RunInfo;
  /** An empty or new folder (the caller checks). */
  readonly folder: string;
  readonly packageVersion: string;
  readonly writtenAt: string;
  /** The report's page inside the bundle, relative to its index.html, when the caller writes one there. */
  readonly report: string | null;
  /** Finds a protocol run's readers' side by its protocol (`protocolOutputsOf` of the kit): a protocol run is bundled with it. */
  readonly protocolOutputs?: ProtocolOutputsLookup;
}

export interface BundleWritten {
  readonly files: number;
  readonly bytes: number;
  readonly conversations: number;
  readonly lists: number;
}

/** JSON as the API sends it: no data (NaN) as null. */
const json = (body: unknown) => JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value));

/**
 * A data file: one call of the page's loader with the file's name and the JSON answer as a string. A
 * page opened from disk (file://) may not fetch() files, but it may run scripts beside it; the JSON is
 * parsed by JSON.parse, never run as code.
 */
const dataFile = (name: string, body: unknown) => `${BUNDLE_DATA_CALL}(${JSON.stringify(name)},${JSON.stringify(json(body))});\n`;

/** The lists a bundle holds: the ones the run page, its matrices and a conversation's page link to, by their filters. */
type ListFilters = Readonly<Record<string, string>>;

/**
 * Writes files a few at a time, making folders as needed, counting files and bytes. The folder may have
 * been prepared by someone else (`--force`): no folder is made through a link and no file written
 * through one (`io/write-without-links.ts`).
 */
class FileWriter {
  private readonly pending = new Set<Promise<void>>();
  private readonly folders = new Set<string>();
  files = 0;
  bytes = 0;

  constructor(private readonly root: string) {}

  async write(name: string, text: string): Promise<void> {
    const path = join(this.root, name);
    const folder = dirname(path);
    if (!this.folders.has(folder)) {
      await makeFolderWithoutLinks(this.root, folder);
      this.folders.add(folder);
    }
    this.files += 1;
    this.bytes += Buffer.byteLength(text);
    const done: Promise<void> = writeFreshFile(path, text).then(() => {
      this.pending.delete(done);
    });
    this.pending.add(done);
    if (this.pending.size >= WRITES_IN_FLIGHT) await Promise.race(this.pending);
  }

  async flush(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** The conversation lists being written: each a page at a time, numbered, its total counted as it grows. */
class ListPages {
  private readonly lists = new Map<string, { id: number; total: number; page: ConversationSummary[]; pages: number }>();
  /** The claims of the items written, whose texts the pages leave out. */
  private readonly claims: BundleClaims = {};

  constructor(private readonly files: FileWriter) {}

  /** Declares a list (so that an empty one, say no failed conversation, is in the bundle with total 0). */
  declare(filters: ListFilters): void {
    const key = listKey(Object.entries(filters));
    if (!this.lists.has(key)) this.lists.set(key, { id: this.lists.size, total: 0, page: [], pages: 0 });
  }

  async add(filters: ListFilters, item: ConversationSummary): Promise<void> {
    this.declare(filters);
    const list = this.lists.get(listKey(Object.entries(filters)))!;
    list.total += 1;
    list.page.push(item);
    if (list.page.length === PAGE_SIZE) await this.writePage(list);
  }

  /** Writes a list's last page once nothing more can join it (its pair, persuader or claim is done), so its items are not held. */
  async close(filters: ListFilters): Promise<void> {
    const list = this.lists.get(listKey(Object.entries(filters)));
    if (list && list.page.length > 0) await this.writePage(list);
  }

  private async writePage(list: { id: number; page: ConversationSummary[]; pages: number }): Promise<void> {
    const name = listPageFile(list.id, list.pages);
    await this.files.write(`data/${name}`, dataFile(name, compactListPage(list.page, this.claims)));
    list.page = [];
    list.pages += 1;
  }

  /** Writes every list's last page, the claims' texts and the manifest of lists (key to number and total). */
  async finish(): Promise<number> {
    for (const list of this.lists.values()) if (list.page.length > 0 || list.pages === 0) await this.writePage(list);
    await this.files.write(`data/${BUNDLE_DATA_FILES.claims}`, dataFile(BUNDLE_DATA_FILES.claims, this.claims));
    const manifest = Object.fromEntries([...this.lists].map(([key, list]) => [key, { id: list.id, total: list.total }]));
    await this.files.write(
      `data/${BUNDLE_DATA_FILES.lists}`,
      dataFile(BUNDLE_DATA_FILES.lists, { pageSize: PAGE_SIZE, lists: manifest } satisfies BundleLists),
    );
    return this.lists.size;
  }
}

const summaryOf = ({ turns: _turns, ...summary }: ConversationRecord): ConversationSummary => summary;

/** The viewer's order of a list: by pair (persuader, persuadee, setting, domain, claim, id). */
const byPair = (a: ConversationSummary, b: ConversationSummary) =>
  compare(a.persuader, b.persuader) ||
  compare(a.persuadee, b.persuadee) ||
  compare(a.setting, b.setting) ||
  compare(a.domain, b.domain) ||
  a.claimIndex - b.claimIndex ||
  compare(a.conversationId, b.conversationId);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Writes a static bundle of one run (docs/design/view.md, "A static bundle"): the viewer's page and
 * script, its styles, and under data/ each API answer its pages read for the run, from the same
 * `ViewApi` that serves them. Streamed: the run is read twice in list order, a record at a time, and
 * memory holds a page per open list and one claim's conversations, never the run.
 */
export async function writeBundle(options: BundleOptions): Promise<BundleWritten> {
  const { source, run } = options;
  const api = new ViewApi(source, options.world, options.protocolOutputs);
  const { summary, runAnswer } = endedRun(api, run.name);
  if (run.config.kind === 'protocol') return writeProtocolBundle(options, api, summary, runAnswer);
  const answered = answerOrRefuse(api, run.name);
  const files = new FileWriter(options.folder);
  const write: WriteData = (name, body) => files.write(`data/${name}`, dataFile(name, body));

  const conversations = source.countConversations(run.id);
  const label: BundleLabel = {
    run: run.name,
    packageVersion: options.packageVersion,
    writtenAt: options.writtenAt,
    simulated: runAnswer.models.some((model) => model.startsWith('sim/')),
    conversations,
    report: options.report,
    pageSize: PAGE_SIZE,
  };
  await files.write('index.html', bundlePageHtml(label));
  await files.write('view-app.js', await loadPageScript('view-app'));
  await files.write('view.css', VIEW_PAGE_CSS);
  await write(BUNDLE_DATA_FILES.runs, { store: `bundle of run ${run.name}`, runs: [summary] } satisfies RunsAnswer);
  await write(BUNDLE_DATA_FILES.run, runAnswer);
  await write(BUNDLE_DATA_FILES.estimates, answered(`/api/runs/${encodeURIComponent(run.name)}/estimates`));
  await writeSettingsComparison(api, run.name, runAnswer, write);

  const lists = new ListPages(files);
  lists.declare({});
  lists.declare({ status: 'failed' });
  lists.declare({ earlyStopped: 'true' });
  await writeConversationsByPair(options, api, lists, write);
  await listConversationsByClaim(options, lists);
  const listCount = await lists.finish();
  await write('bundle.js', label);
  await files.flush();
  return { files: files.files, bytes: files.bytes, conversations, lists: listCount };
}

/** The run as the runs page and its own page show it; a run still being written is refused. */
function endedRun(api: ViewApi, runName: string): { readonly summary: ViewRun; readonly runAnswer: RunAnswer } {
  const answered = answerOrRefuse(api, runName);
  const summary = (answered('/api/runs') as RunsAnswer).runs.find((entry) => entry.name === runName)!;
  if (summary.live) throw new InputError(`run ${runName} is still running: bundle it once it has ended (pmiyc runs shows its status)`);
  return { summary, runAnswer: answered(`/api/runs/${encodeURIComponent(runName)}`) as RunAnswer };
}

/**
 * A static bundle of a protocol run (docs/design/protocols.md, "Viewer"): its page, the list of its items whole (the
 * page filters and pages it as the server does, with `itemsPage`) and each readable item's answer, read from the
 * store a record at a time.
 */
async function writeProtocolBundle(options: BundleOptions, api: ViewApi, summary: ViewRun, runAnswer: RunAnswer): Promise<BundleWritten> {
  const { run } = options;
  const table = api.protocolItems.table(run.name);
  // As a tournament's damaged record stops its bundle: a bundle is made to be handed on, never with items missing.
  const damaged = table.unreadable[0];
  if (damaged) {
    throw new InputError(
      `run ${run.name} cannot be bundled: ${table.unreadable.length} of its records cannot be read by the ${table.protocol} protocol (the first, ${damaged.itemKey}: ${damaged.problem})`,
    );
  }
  const files = new FileWriter(options.folder);
  const write: WriteData = (name, body) => files.write(`data/${name}`, dataFile(name, body));
  const label: BundleLabel = {
    run: run.name,
    packageVersion: options.packageVersion,
    writtenAt: options.writtenAt,
    simulated: table.simulated.length > 0,
    conversations: table.rows.length,
    report: options.report,
    pageSize: PAGE_SIZE,
  };
  await files.write('index.html', bundlePageHtml(label));
  await files.write('view-app.js', await loadPageScript('view-app'));
  await files.write('view.css', VIEW_PAGE_CSS);
  await write(BUNDLE_DATA_FILES.runs, { store: `bundle of run ${run.name}`, runs: [summary] } satisfies RunsAnswer);
  await write(BUNDLE_DATA_FILES.run, runAnswer);
  await write(BUNDLE_DATA_FILES.items, table);
  for (const item of api.protocolItems.readableItems(run.name)) await write(protocolItemFile(item.itemKey), item);
  await write('bundle.js', label);
  await files.flush();
  return { files: files.files, bytes: files.bytes, conversations: table.rows.length, lists: 1 };
}

/** Writes one data file of the bundle: its name under data/ and the answer it holds. */
type WriteData = (name: string, body: unknown) => Promise<void>;

/** The API's answer to a path, or (where it is not 200) an `InputError` that says why the run cannot be bundled. */
function answerOrRefuse(api: ViewApi, runName: string): (path: string, query?: string) => unknown {
  return (path, query = '') => {
    const answer: ApiAnswer = api.answer(path, new URLSearchParams(query));
    if (answer.status !== 200) throw new InputError(`run ${runName} cannot be bundled: ${(answer.body as { error: string }).error}`);
    return answer.body;
  };
}

/** The comparison of the run's single-turn with its multi-turn setting, where it has both (and the API can make it). */
async function writeSettingsComparison(api: ViewApi, runName: string, runAnswer: RunAnswer, write: WriteData): Promise<void> {
  const settings = new Set(runAnswer.conditions.map((condition) => condition.setting));
  if (settings.size !== 2) return;
  const query = new URLSearchParams({ a: runName, b: runName, aSetting: 'single', bSetting: 'multi' }).toString();
  const answer = api.answer('/api/compare', new URLSearchParams(query));
  if (answer.status === 200) await write(BUNDLE_DATA_FILES.compare, answer.body);
}

/**
 * Pass 1, by pair: each conversation's page, and the lists whose members the pair order keeps together
 * (a pair's, a persuader's), each closed as soon as the order has moved past it.
 */
async function writeConversationsByPair(options: BundleOptions, api: ViewApi, lists: ListPages, write: WriteData): Promise<void> {
  const { source, run } = options;
  let previous: ConversationRecord | undefined;
  const closeOnChange = async (record: ConversationRecord | undefined) => {
    if (!previous) return;
    const where = { domain: previous.domain, setting: previous.setting };
    if (
      record?.persuader !== previous.persuader ||
      record.persuadee !== previous.persuadee ||
      record.setting !== previous.setting ||
      record.domain !== previous.domain
    )
      await lists.close({ ...where, persuader: previous.persuader, persuadee: previous.persuadee });
    if (record?.persuader !== previous.persuader) {
      for (const domain of ['subjective', 'misinformation'])
        for (const setting of ['single', 'multi']) await lists.close({ domain, setting, persuader: previous.persuader });
    }
  };
  for (const record of source.browse.conversationsInOrder(run.id, 'pair')) {
    await closeOnChange(record);
    previous = record;
    const id = record.conversationId;
    await write(conversationFile(id), {
      record: compactRecord(record),
      calls: api.callsOf(run.name, record, []),
      labels: api.labelsOf(run.name, id, undefined),
    });
    await addToPairLists(lists, record);
  }
  await closeOnChange(undefined);
}

/** Adds a conversation to every list the pair order fills: all, failed, early stops, its pair's, its persuader's and its persuadee's. */
async function addToPairLists(lists: ListPages, record: ConversationRecord): Promise<void> {
  const item = summaryOf(record);
  const where = { domain: record.domain, setting: record.setting };
  await lists.add({}, item);
  if (record.status === 'failed') await lists.add({ status: 'failed' }, item);
  if (record.earlyStopped) await lists.add({ earlyStopped: 'true' }, item);
  await lists.add({ ...where, persuader: record.persuader, persuadee: record.persuadee }, item);
  await lists.add({ ...where, persuader: record.persuader }, item);
  await lists.add({ ...where, persuadee: record.persuadee }, item);
}

/** Pass 2, by claim: one claim's conversations at a time, in the viewer's order by pair, then its lists closed. */
async function listConversationsByClaim(options: BundleOptions, lists: ListPages): Promise<void> {
  let group: ConversationSummary[] = [];
  const writeClaim = async () => {
    group.sort(byPair);
    for (const item of group) await lists.add({ domain: item.domain, claim: String(item.claimIndex) }, item);
    for (const item of group) await lists.add({ domain: item.domain, setting: item.setting, claim: String(item.claimIndex) }, item);
    const first = group[0];
    if (first) {
      const claim = String(first.claimIndex);
      await lists.close({ domain: first.domain, claim });
      for (const setting of ['single', 'multi']) await lists.close({ domain: first.domain, setting, claim });
    }
    group = [];
  };
  for (const record of options.source.browse.conversationsInOrder(options.run.id, 'claim')) {
    const first = group[0];
    if (first && (first.domain !== record.domain || first.claimIndex !== record.claimIndex)) await writeClaim();
    group.push(summaryOf(record));
  }
  await writeClaim();
}

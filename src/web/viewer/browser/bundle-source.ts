import type { ConversationSummary } from '../../../studies/tournament/tournament-browse.js';
import {
  BUNDLE_DATA_CALL,
  BUNDLE_DATA_FILES,
  BUNDLE_META_NAME,
  type BundleClaims,
  type BundleLabel,
  type BundleLists,
  listKey as bundleListKey,
  type CompactListPage,
  conversationFile,
  listPageFile,
  protocolItemFile,
} from '../../wire/bundle-files.js';
import { PAGING_PARAMETERS } from '../../wire/conversation-filters.js';
import { itemsPage, type ProtocolItemAnswer, type ProtocolItemTable } from '../../wire/protocol-items.js';
import type { CallsAnswer, LabelsAnswer, NotesAnswer } from '../../wire/view-answers.js';
import { expandListPage, expandRecord } from './bundle-data.js';

/*
 * The viewer's data source in a static bundle (`pmiyc view --bundle`, docs/design/view.md): the same
 * pages ask the same API paths, and this answers them from the JSON files the bundle holds under
 * data/ instead of the server. A page opened from disk may not fetch() files, so each data file is a
 * script that hands its JSON, as a string, to `BUNDLE_DATA_CALL`; JSON.parse reads it.
 */

/** What the bundle's page says of itself (its `BUNDLE_META_NAME` meta element, written by src/web/viewer/view-page.ts). */
export type BundleInfo = BundleLabel;

let info: BundleInfo | null | undefined;

/** The bundle this page is, or null when it is the live viewer. */
export function bundleInfo(): BundleInfo | null {
  if (info === undefined) {
    const meta = document.querySelector(`meta[name="${BUNDLE_META_NAME}"]`);
    info = meta ? (JSON.parse(meta.getAttribute('content') ?? '{}') as BundleInfo) : null;
  }
  return info;
}

declare global {
  interface Window {
    [BUNDLE_DATA_CALL]?: (name: string, text: string) => void;
  }
}

/** Data files read, by name (a few kept: a conversation's three answers share one file). */
const loaded = new Map<string, unknown>();
const KEPT = 24;

/** Reads data/NAME, once. */
function load<T>(name: string): Promise<T> {
  if (loaded.has(name)) return Promise.resolve(loaded.get(name) as T);
  window[BUNDLE_DATA_CALL] ??= (file: string, text: string) => {
    loaded.set(file, JSON.parse(text));
    if (loaded.size > KEPT) loaded.delete(loaded.keys().next().value!);
  };
  return new Promise<T>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `data/${name}`;
    script.onload = () => {
      script.remove();
      if (loaded.has(name)) resolve(loaded.get(name) as T);
      else reject(new Error(`the bundle's file data/${name} did not hold its data: write the bundle again`));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`the bundle has no file data/${name}: it is incomplete, or the address names something it does not hold`));
    };
    document.head.append(script);
  });
}

/** Parameters that choose a page of a list, not the list. */
const PAGING = new Set<string>(PAGING_PARAMETERS);

const elsewhere = (what: string, run: string) =>
  new Error(`${what} is not in this bundle, which holds run ${run} as its pages link to it: open the run's store with pmiyc view for anything else`);

/** A conversation list's key from the page's query: the filters that choose the list, as the bundle's writer keys it. */
function listKey(query: URLSearchParams, bundle: BundleInfo): string {
  const kept = [...query].filter(([name, value]) => {
    if (value === '' || PAGING.has(name)) return false;
    if (name === 'sort' && value === 'pair') return false;
    if (name === 'analysis') return false;
    return true;
  });
  if (kept.some(([name]) => name === 'sort')) throw elsewhere('A list in another order', bundle.run);
  return bundleListKey(kept);
}

interface ConversationFile {
  /** As src/web/viewer/bundle-compact.ts wrote it: `expandRecord` gives it back. */
  readonly record: Readonly<Record<string, unknown>>;
  readonly calls: CallsAnswer;
  readonly labels: LabelsAnswer;
}

/** Answers an API path (`runs/NAME/conversations?...`, as the pages ask the server) from the bundle's files. */
export async function bundleAnswer<T>(path: string, bundle: BundleInfo): Promise<T> {
  const [rawPath, search] = path.split('?');
  const query = new URLSearchParams(search || '');
  const parts = (rawPath || '').split('/').map(decodeURIComponent);
  const analysis = query.get('analysis');
  if (query.get('run') && query.get('run') !== bundle.run) throw elsewhere(`Run ${query.get('run')}`, bundle.run);
  if (parts[0] === 'runs' && parts.length === 1) return load<T>(BUNDLE_DATA_FILES.runs);
  if (parts[0] === 'runs' && parts[1] !== bundle.run) throw elsewhere(`Run ${parts[1]}`, bundle.run);
  const run = await load<{ analysis: { name: string } | null }>(BUNDLE_DATA_FILES.run);
  if (analysis && analysis !== run.analysis?.name) throw elsewhere(`Analysis study ${analysis}`, bundle.run);
  if (parts[0] === 'runs' && parts.length === 2) return run as T;
  if (parts[0] === 'runs' && parts[2] === 'estimates') return load<T>(BUNDLE_DATA_FILES.estimates);
  if (parts[0] === 'runs' && parts[2] === 'conversations') return listPage(query, bundle) as Promise<T>;
  if (parts[0] === 'runs' && parts[2] === 'items') return protocolAnswer(parts[3], query, bundle) as Promise<T>;
  // Notes are the researcher's, in their store: a bundle shows none and takes none.
  if (parts[0] === 'runs' && parts[2] === 'notes' && parts.length === 3) return noNotes(bundle) as T;
  if (parts[0] === 'conversations' && parts[1]) {
    const file = await load<ConversationFile>(conversationFile(parts[1]));
    if (file.record.conversationId !== parts[1]) throw elsewhere(`Conversation ${parts[1]}`, bundle.run);
    if (parts.length === 2) return expandRecord(file.record) as T;
    if (parts[2] === 'calls') return file.calls as T;
    if (parts[2] === 'labels') return file.labels as T;
  }
  if (parts[0] === 'compare') {
    const wanted = query.get('a') === bundle.run && query.get('b') === bundle.run && query.get('aSetting') === 'single' && query.get('bSetting') === 'multi';
    if (!wanted) throw elsewhere('This comparison', bundle.run);
    return load<T>(BUNDLE_DATA_FILES.compare);
  }
  throw elsewhere(`The page ${path}`, bundle.run);
}

/** A protocol run's list, filtered and paged here as the server would (`itemsPage`), or one of its items. */
async function protocolAnswer(itemKey: string | undefined, query: URLSearchParams, bundle: BundleInfo): Promise<unknown> {
  if (itemKey === undefined) {
    const page = itemsPage(await load<ProtocolItemTable>(BUNDLE_DATA_FILES.items), query);
    if ('error' in page) throw new Error(page.error);
    return page;
  }
  const item = await load<ProtocolItemAnswer>(protocolItemFile(itemKey));
  if (item.itemKey !== itemKey) throw elsewhere(`Item ${itemKey}`, bundle.run);
  return item;
}

/** The notes answer of a bundle: none, and why none can be written. */
const noNotes = (bundle: BundleInfo): NotesAnswer => ({
  run: bundle.run,
  writing: { writable: false, why: 'this is a static bundle: notes live in the store, in pmiyc view' },
  tags: [],
  notes: [],
});

/** A page of one of the bundle's lists: its items from the page's file, its total from the list of lists. */
async function listPage(query: URLSearchParams, bundle: BundleInfo): Promise<{ total: number; items: ConversationSummary[] }> {
  const manifest = await load<BundleLists>(BUNDLE_DATA_FILES.lists);
  const key = listKey(query, bundle);
  const list = manifest.lists[key];
  if (!list) throw elsewhere(`The list ${key ? `of ${key.replace(/&/g, ', ')}` : ''}`, bundle.run);
  const offset = Number(query.get('offset') || 0);
  if (!Number.isInteger(offset) || offset < 0 || offset % manifest.pageSize !== 0) throw elsewhere(`A page starting at ${offset}`, bundle.run);
  if (offset >= list.total && offset > 0) return { total: list.total, items: [] };
  const [page, claims] = await Promise.all([
    load<CompactListPage>(listPageFile(list.id, offset / manifest.pageSize)),
    load<BundleClaims>(BUNDLE_DATA_FILES.claims),
  ]);
  return { total: list.total, items: expandListPage(page, claims) };
}

/*
 * How a static bundle (`pmiyc view --bundle`, docs/design/view.md, "A static bundle") is laid out:
 * what its writer (src/web/viewer/view-bundle.ts) names and writes, and its page
 * (src/web/viewer/browser/bundle-source.ts) looks for. Plain code and types: no DOM, no Node.
 */

/** The meta element in which a bundle's page says what it is: `<meta name="pmiyc-bundle" content="BundleLabel as JSON">`. */
export const BUNDLE_META_NAME = 'pmiyc-bundle';

/** What a static bundle's page says of itself, above every view, and tells its script. */
export interface BundleLabel {
  readonly run: string;
  /** The pmiyc that wrote the bundle. */
  readonly packageVersion: string;
  readonly writtenAt: string;
  readonly simulated: boolean;
  readonly conversations: number;
  /** The bundled report's page, relative to the bundle's index.html; null without one. */
  readonly report: string | null;
  /** Conversations per list page. */
  readonly pageSize: number;
}

/**
 * The function each data file calls with its name and its JSON as a string: a page opened from disk
 * (file://) may not fetch() files, but it may run scripts beside it, and the page parses the string.
 */
export const BUNDLE_DATA_CALL = 'pmiycBundleData';

/** The data files of a bundle, under data/, that hold one answer each. */
export const BUNDLE_DATA_FILES = {
  runs: 'runs.js',
  run: 'run.js',
  estimates: 'estimates.js',
  compare: 'compare.js',
  /** The lists the bundle holds (`BundleLists`). */
  lists: 'lists.js',
  /** The claims' texts the list pages leave out (`BundleClaims`). */
  claims: 'claims.js',
  /** A protocol run's every item as its list shows them (`ProtocolItemTable` of protocol-items.ts). */
  items: 'items.js',
} as const;

/** `lists.js`: each list by its key (`listKey`), with its number (its pages' folder) and its total. */
export interface BundleLists {
  readonly pageSize: number;
  readonly lists: Readonly<Record<string, { readonly id: number; readonly total: number }>>;
}

/** A list's page: `lists/<number>/<page>.js`, from 0. */
export const listPageFile = (list: number, page: number): string => `lists/${list}/${page}.js`;

/** A list's key: its filters as a query, in name order. */
export function listKey(filters: Iterable<[string, string]>): string {
  return new URLSearchParams([...filters].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
}

/**
 * A conversation's data file: its id when that is a short, lower-case file name, else a hash of it;
 * in a folder named by its last two characters (a few hundred files a folder on a million conversations).
 */
export const conversationFile = (id: string): string => spreadFile('conversations', id);

/** A protocol run's item's data file (its `ProtocolItemAnswer`), named from its key as a conversation's is from its id. */
export const protocolItemFile = (itemKey: string): string => spreadFile('items', itemKey);

function spreadFile(folder: string, id: string): string {
  const name = /^[a-z0-9_-]{1,64}$/.test(id) ? id : `~${textHash(id)}`;
  return `${folder}/${name.slice(-2)}/${name}.js`;
}

/** Two 32-bit FNV-1a hashes of the UTF-16 code units, as 16 hex digits. */
function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x01000193) >>> 0;
    b = (b ^ (b >>> 15)) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** The claims of a run's conversations, by `claimSlot`: [claim, question]. */
export type BundleClaims = Record<string, readonly [string, string | null]>;

/** Where a claim's texts are kept in `BundleClaims`. */
export const claimSlot = (domain: string, claimIndex: number): string => `${domain}:${claimIndex}`;

/**
 * A list page: each item without its claim and question (in the bundle's claims.js, once) and without
 * the fields every item of the page has alike (`common`, once a page: the run, the pair of a pair's
 * list, the empty failure fields of a page of completed conversations).
 */
export interface CompactListPage {
  readonly common: Readonly<Record<string, unknown>>;
  readonly items: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

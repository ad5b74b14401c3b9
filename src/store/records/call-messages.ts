import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Database, Statement } from 'better-sqlite3';
import type { ChatMessage } from '../../models/chat-model.js';
import type { CommitQueue } from '../commit-queue.js';

/** Texts shorter than this are kept as they are: deflating them saves little and costs CPU on every call. */
const DEFLATE_FROM_CHARS = 256;

/** A text as stored: as it is when short, deflated (a BLOB) when long. */
export const packText = (text: string): string | Buffer => (text.length < DEFLATE_FROM_CHARS ? text : deflateRawSync(text, { level: 1 }));

export const unpackText = (stored: string | Buffer): string => (typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'));

/** How many rows a `CallMessages` keeps in memory: far more than the requests in flight at once. */
const KNOWN_ROWS = 50_000;

/** How many deflated texts a `CallMessages` keeps for texts that come again (~1 KB each). */
const PACKED_TEXTS = 1_000;

/** The hash before a request's first message. */
const NO_HASH = Buffer.alloc(0);

interface KnownMessage {
  readonly role: ChatMessage['role'];
  readonly id: number;
  readonly hash: Buffer;
}

/**
 * The messages of stored requests, each kept once, as a tree. A call's request is the whole
 * conversation so far; stored whole, a conversation's requests grow with the square of its turns.
 * Here a message row names the message before it (`parent`), so a request is its last message's row
 * and a new call adds only the messages its request has beyond one already stored: for a turn, the
 * agent's own last reply and the other agent's new message. A row is found by the sha256 of its
 * message and of everything before it; long texts are deflated.
 */
export class CallMessages {
  /**
   * Rows this object stored or found, by hash (as latin1 text). Most calls extend a request saved a
   * moment before (the agent's previous call in the same conversation), so its last row is found
   * here instead of by a query per message. Rows are never deleted; the map is emptied after a commit
   * of `commits` failed, since the rows it stored in that commit were rolled back, and when it grows
   * past a bound.
   */
  private readonly known = new Map<string, number>();
  /**
   * The same rows by their parent's row, then their text (with their role and hash): a request's known
   * prefix is walked from its first message by text, without hashing those messages again (a request
   * holds the whole conversation so far, ~5 messages, of which ~1.5 are new). Filled and emptied with `known`.
   */
  private readonly byParent = new Map<number | null, Map<string, KnownMessage>>();
  /** Long texts deflated lately, by text: a prompt that ends many conversations alike is deflated once. */
  private readonly packed = new Map<string, Buffer>();
  /** `commits.failedCommits` when `known` was last checked against it. */
  private failuresSeen = 0;
  private readonly selectId: Statement<[Buffer], number>;
  private readonly insert: Statement<[Buffer, number | null, string, string | Buffer]>;
  private readonly selectRow: Statement<[number], { parent: number | null; role: ChatMessage['role']; content: string | Buffer }>;

  /** @param commits - the queue whose commits hold this object's writes, when it writes through one */
  constructor(
    database: Database,
    private readonly commits?: Pick<CommitQueue, 'failedCommits'>,
  ) {
    this.selectId = database.prepare<[Buffer], number>('SELECT id FROM call_messages WHERE hash = ?').pluck();
    this.insert = database.prepare<[Buffer, number | null, string, string | Buffer]>(
      'INSERT OR IGNORE INTO call_messages (hash, parent, role, content) VALUES (?, ?, ?, ?)',
    );
    this.selectRow = database.prepare<[number], { parent: number | null; role: ChatMessage['role']; content: string | Buffer }>(
      'SELECT parent, role, content FROM call_messages WHERE id = ?',
    );
  }

  /** Stores a request's messages (only those not stored yet) and returns the row of the last one. Run inside the call's transaction. */
  save(messages: readonly ChatMessage[]): number {
    if (this.commits && this.commits.failedCommits !== this.failuresSeen) {
      this.failuresSeen = this.commits.failedCommits;
      this.forget();
    }
    // The prefix found by text among the rows known here; the messages after it are hashed.
    let parent: number | null = null;
    let first = 0;
    let previous: Buffer = NO_HASH;
    for (; first < messages.length; first++) {
      const message = messages[first]!;
      const step: KnownMessage | undefined = this.byParent.get(parent)?.get(message.content);
      if (step === undefined || step.role !== message.role) break;
      parent = step.id;
      previous = step.hash;
    }
    const hashes: Buffer[] = [];
    for (let index = first; index < messages.length; index++) {
      const message = messages[index]!;
      previous = createHash('sha256').update(previous).update(message.role).update('\u0000').update(message.content).digest();
      hashes[index] = previous;
    }
    // The longest stored prefix: first among the rows known here, else by asking the store.
    for (let index = hashes.length - 1; index >= first; index--) {
      const id = this.known.get(hashes[index]!.toString('latin1'));
      if (id !== undefined) {
        parent = id;
        first = index + 1;
        break;
      }
    }
    for (let index = hashes.length - 1; index >= 0 && parent === null; index--) {
      const id = this.selectId.get(hashes[index]!);
      if (id !== undefined) {
        parent = id;
        first = index + 1;
      }
    }
    // A message after a known prefix may still be stored (by another run or process): then it is found, not added.
    for (let index = first; index < messages.length; index++) {
      const message = messages[index]!;
      const hash = hashes[index]!;
      const inserted = this.insert.run(hash, parent, message.role, this.pack(message.content));
      const id = inserted.changes === 1 ? Number(inserted.lastInsertRowid) : this.selectId.get(hash)!;
      this.remember(parent, message, hash, id);
      parent = id;
    }
    if (parent === null) throw new RangeError('a request without messages');
    return parent;
  }

  private remember(parent: number | null, message: ChatMessage, hash: Buffer, id: number): void {
    if (this.known.size >= KNOWN_ROWS) this.forget();
    this.known.set(hash.toString('latin1'), id);
    let children = this.byParent.get(parent);
    if (children === undefined) {
      children = new Map();
      this.byParent.set(parent, children);
    }
    children.set(message.content, { role: message.role, id, hash });
  }

  private forget(): void {
    this.known.clear();
    this.byParent.clear();
  }

  /** `packText` of a message's text; the same text always deflates to the same bytes, so a repeated one is taken from `packed`. */
  private pack(text: string): string | Buffer {
    if (text.length < DEFLATE_FROM_CHARS) return text;
    let stored = this.packed.get(text);
    if (stored === undefined) {
      if (this.packed.size >= PACKED_TEXTS) this.packed.clear();
      stored = deflateRawSync(text, { level: 1 });
      this.packed.set(text, stored);
    }
    return stored;
  }

  /** The messages of a stored request, first to last, from its last message's row. */
  read(lastId: number): ChatMessage[] {
    const messages: ChatMessage[] = [];
    for (let id: number | null = lastId; id !== null; ) {
      const row = this.selectRow.get(id);
      if (!row) throw new RangeError(`stored message ${id} is missing: the store is damaged`);
      messages.push({ role: row.role, content: unpackText(row.content) });
      id = row.parent;
    }
    return messages.reverse();
  }
}

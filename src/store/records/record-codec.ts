import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { parseStoredRecord } from './record-schema.js';

/** Marks a record stored compactly (deflated JSON, repeated text left out), as a BLOB. */
const COMPACT_VERSION = 1;

/**
 * A conversation record as stored: deflated JSON in which each reply's text is kept once instead of
 * three times. A turn's `raw` is left out when it is its accepted attempt's `raw` (always, for
 * records pmiyc makes), and its `message` is kept as its place in the raw reply. The first byte is
 * the format's version.
 */
export function encodeRecord(record: ConversationRecord): Buffer {
  const stored = record.imported ? withStoredSeeds(record) : record;
  const turns = stored.turns.map(({ raw, message, ...turn }) => {
    // The message is the text between the reply's tags: kept as its place in the raw reply.
    const at = raw.indexOf(message);
    const text = at >= 0 && message.length > 0 ? { messageAt: [at, message.length] } : { message };
    return turn.attempts.at(-1)?.raw === raw ? { ...turn, ...text } : { ...turn, ...text, raw };
  });
  const json = JSON.stringify({ ...stored, turns });
  // Level 1: most of the gain at a fraction of the default level's CPU (records are written once per conversation, read in bulk).
  return Buffer.concat([Buffer.from([COMPACT_VERSION]), deflateRawSync(json, { level: 1 })]);
}

/**
 * An imported record has no seeds; the store keeps 0 in their place, as pmiyc 0.1.0 wrote them (and
 * needs them to read the store), and `decodeRecord` gives them back as null.
 */
function withStoredSeeds(record: ConversationRecord): ConversationRecord {
  const turns = record.turns.map((turn) => ({ ...turn, attempts: turn.attempts.map((attempt) => ({ ...attempt, seed: attempt.seed ?? 0 })) }));
  return { ...record, runSeed: record.runSeed ?? 0, turns };
}

/**
 * A stored record back, checked against the record schema: a BLOB written by `encodeRecord`, or the
 * JSON text of a store written before records were compact.
 */
export function decodeRecord(stored: string | Buffer): ConversationRecord {
  if (typeof stored === 'string') return parseStoredRecord(JSON.parse(stored));
  if (stored[0] !== COMPACT_VERSION) throw new RangeError(`a stored record in an unknown format (${stored[0]}): this pmiyc is older than the store`);
  const parsed = JSON.parse(inflateRawSync(stored.subarray(1)).toString('utf8')) as {
    turns: Array<{ raw?: string; message?: string; messageAt?: [number, number]; attempts: Array<{ raw: string }> }>;
  };
  for (const turn of parsed.turns) {
    turn.raw ??= turn.attempts.at(-1)?.raw ?? '';
    if (turn.messageAt) {
      turn.message = turn.raw.slice(turn.messageAt[0], turn.messageAt[0] + turn.messageAt[1]);
      delete turn.messageAt;
    }
  }
  return parseStoredRecord(parsed);
}

/** A turn's message as the search index takes it. */
export interface StoredMessage {
  readonly index: number;
  readonly role: 'persuader' | 'persuadee';
  readonly message: string;
}

/**
 * The messages of a stored record, read without checking the whole record against its schema (what
 * `pmiyc upgrade` needs of each of a million records to index them: a fraction of `decodeRecord`'s work).
 */
export function storedMessages(stored: string | Buffer): StoredMessage[] {
  if (typeof stored !== 'string' && stored[0] !== COMPACT_VERSION)
    throw new RangeError(`a stored record in an unknown format (${stored[0]}): this pmiyc is older than the store`);
  const json = typeof stored === 'string' ? stored : inflateRawSync(stored.subarray(1)).toString('utf8');
  const { turns } = JSON.parse(json) as {
    turns: Array<{
      index: number;
      role: StoredMessage['role'];
      raw?: string;
      message?: string;
      messageAt?: [number, number];
      attempts: Array<{ raw: string }>;
    }>;
  };
  return turns.map((turn) => {
    const raw = turn.raw ?? turn.attempts.at(-1)?.raw ?? '';
    const message = turn.messageAt ? raw.slice(turn.messageAt[0], turn.messageAt[0] + turn.messageAt[1]) : (turn.message ?? '');
    return { index: turn.index, role: turn.role, message };
  });
}

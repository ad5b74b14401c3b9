import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../models/chat-model.js';
import { CommitQueue } from '../commit-queue.js';
import { openStoreDatabase } from '../open-database.js';
import { CallMessages, packText } from './call-messages.js';

let folder: string;
let database: Database;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-messages-'));
  database = openStoreDatabase(join(folder, 'store.db'), 'create');
});
afterEach(() => {
  database.close();
  rmSync(folder, { recursive: true, force: true });
});

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You argue for the claim.' },
  { role: 'user', content: 'Opening: I am neutral.' },
  { role: 'assistant', content: 'First argument.' },
  { role: 'user', content: 'A reply.' },
  { role: 'assistant', content: 'Second argument.' },
];
const rows = () => database.prepare('SELECT count(*) FROM call_messages').pluck().get();

describe('the stored messages of requests', () => {
  it('keep each message once: a request that extends a stored one adds only its new messages', () => {
    const messages = new CallMessages(database);
    const shorter = messages.save(conversation.slice(0, 3));
    const longer = messages.save(conversation);
    expect(rows()).toBe(5);
    expect(messages.read(shorter)).toEqual(conversation.slice(0, 3));
    expect(messages.read(longer)).toEqual(conversation);
  });

  it('store a text again when it follows other messages or comes from the other role', () => {
    const messages = new CallMessages(database);
    const other: ChatMessage[] = [{ role: 'system', content: 'You argue against the claim.' }, ...conversation.slice(1, 3)];
    const asUser: ChatMessage[] = [...conversation.slice(0, 2), { role: 'user', content: 'First argument.' }];
    const requests = [conversation.slice(0, 3), other, asUser, conversation.slice(0, 3)];
    const ids = requests.map((request) => messages.save(request));
    // 3 rows, then 3 more after another system message, then 1 more for the same text as another role.
    expect(rows()).toBe(7);
    expect(ids[3]).toBe(ids[0]);
    expect(ids.map((id) => messages.read(id))).toEqual(requests);
    // Another writer finds the same rows.
    expect(new CallMessages(database).save(other)).toBe(ids[1]);
  });

  it('find a message stored by another writer after the prefix they know, instead of storing it twice', () => {
    const first = new CallMessages(database);
    const second = new CallMessages(database);
    first.save(conversation.slice(0, 2));
    second.save(conversation.slice(0, 3));
    // `first` knows the first two messages, the store already has the third.
    const last = first.save(conversation.slice(0, 4));
    expect(rows()).toBe(4);
    expect(first.read(last)).toEqual(conversation.slice(0, 4));
  });

  it('after a failed commit, store again the messages it rolled back instead of pointing at rows that are gone', () => {
    const commits = new CommitQueue(database);
    const messages = new CallMessages(database, commits);
    const saved = commits.enqueue(() => messages.save(conversation.slice(0, 3)));
    const failing = commits.enqueue(() => {
      throw new Error('disk full');
    });
    commits.flush();
    expect(rows()).toBe(0);
    let last = 0;
    const retried = commits.enqueue(() => {
      last = messages.save(conversation);
    });
    commits.flush();
    return Promise.allSettled([saved, failing, retried]).then((outcomes) => {
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      expect(rows()).toBe(5);
      expect(messages.read(last)).toEqual(conversation);
    });
  });

  it('store a long text that comes again after other messages deflated to the same bytes, and walk known prefixes without losing a row', () => {
    const messages = new CallMessages(database);
    const closing: ChatMessage = { role: 'user', content: `The discussion has ended. ${'Say where you stand now. '.repeat(20)}` };
    const requests = [
      [...conversation.slice(0, 2), closing],
      [...conversation.slice(0, 4), closing],
      [...conversation, closing],
      [...conversation.slice(0, 2), closing],
    ];
    const ids = requests.map((request) => messages.save(request));
    expect(ids[3]).toBe(ids[0]);
    expect(rows()).toBe(8);
    const stored = database.prepare('SELECT content FROM call_messages WHERE typeof(content) = ? ORDER BY id').pluck().all('blob') as Buffer[];
    expect(stored).toHaveLength(3);
    for (const bytes of stored) expect(bytes.equals(packText(closing.content) as Buffer)).toBe(true);
    expect(ids.map((id) => messages.read(id))).toEqual(requests);
    // A fresh writer, which knows no row, finds every one of them.
    expect(requests.map((request) => new CallMessages(database).save(request))).toEqual(ids);
    expect(rows()).toBe(8);
  });
});

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CommitQueue } from './commit-queue.js';

describe('CommitQueue', () => {
  const database = new Database(':memory:');
  database.exec('CREATE TABLE rows (kind TEXT)');
  const count = () => database.prepare('SELECT count(*) FROM rows').pluck().get();
  const write = (queue: CommitQueue, kind: 'reply' | 'other') => queue.enqueue(() => database.prepare('INSERT INTO rows VALUES (?)').run(kind), kind);
  afterEach(() => {
    database.exec('DELETE FROM rows');
  });

  it('commits at once, without waiting for the next turn of the event loop, when as many replies wait as its limit', async () => {
    const queue = new CommitQueue(database);
    queue.limitWaitingReplies(3);
    const writes = [write(queue, 'reply'), write(queue, 'other'), write(queue, 'reply')];
    expect(count()).toBe(0);
    writes.push(write(queue, 'reply'));
    expect(count()).toBe(4);
    writes.push(write(queue, 'reply'));
    expect(count()).toBe(4);
    await Promise.all(writes);
    expect(count()).toBe(5);
  });

  it('without a limit, gathers any number of replies into the next commit', async () => {
    const queue = new CommitQueue(database);
    const writes = Array.from({ length: 50 }, () => write(queue, 'reply'));
    expect(count()).toBe(0);
    await Promise.all(writes);
    expect(count()).toBe(50);
  });

  it('keeps the smallest limit asked for and refuses one that is not a whole number >= 1', () => {
    const queue = new CommitQueue(database);
    queue.limitWaitingReplies(2);
    queue.limitWaitingReplies(8);
    write(queue, 'reply');
    write(queue, 'reply');
    expect(count()).toBe(2);
    expect(() => queue.limitWaitingReplies(0)).toThrow(RangeError);
  });
});

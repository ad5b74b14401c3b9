import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openToRead } from './open-to-read.js';
import { openStore } from './result-store.js';

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-open-to-read-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('openToRead: a store a dry run may read', () => {
  it('is undefined when there is no file yet, and creates none', () => {
    const path = join(folder, 'none.db');
    expect(openToRead(path)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it('opens a store that exists, to read', () => {
    const path = join(folder, 'made.db');
    openStore(path, { access: 'create' }).close();
    const store = openToRead(path);
    expect(store?.path).toBe(path);
    store?.close();
  });
});

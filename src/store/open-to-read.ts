import { existsSync } from 'node:fs';
import { StoreError } from '../domain/errors/store-error.js';
import { openStore, type Store } from './result-store.js';

/**
 * The store at `path` opened to read, or undefined when there is no file there yet or it holds no run
 * (a dry run of a new run prices it all the same). Any other problem with the store is thrown.
 */
export function openToRead(path: string): Store | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return openStore(path, { access: 'read' });
  } catch (error) {
    if (error instanceof StoreError && error.problem === 'empty') return undefined;
    throw error;
  }
}

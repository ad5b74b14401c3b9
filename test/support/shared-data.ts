import { fileURLToPath } from 'node:url';

/** The read-only shared data folder beside the project (as in CI): for tests only, never committed. */
export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));

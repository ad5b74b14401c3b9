import { readFileSync } from 'node:fs';
import type { PmiycConfig } from '../config/config-schema.js';
import { parseConfig } from '../config/parse-config.js';
import { decodeText } from '../datasets/decode-text.js';
import { InputError } from '../domain/input-error.js';

/** The config named by --config (or PMIYC_CONFIG); an empty config when there is none. */
export function loadConfig(path: string | undefined): PmiycConfig {
  if (path === undefined) return { models: {} };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no config file at ${path}: check the path given to --config` : `cannot read ${path} (${code})`);
  }
  return parseConfig(path, decodeText(path, bytes));
}

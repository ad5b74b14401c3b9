import type { PmiycConfig } from '../../config/config-schema.js';
import { parseConfig } from '../../config/parse-config.js';
import { readConfigFile } from '../read-text-file.js';

/** The config named by --config (or PMIYC_CONFIG); an empty config when there is none. */
export async function loadConfig(path: string | undefined): Promise<PmiycConfig> {
  if (path === undefined) return { models: {}, variants: {} };
  return parseConfig(path, await readConfigFile(path, `no config file at ${path}: check the path given to --config`));
}

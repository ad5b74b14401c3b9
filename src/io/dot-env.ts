import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The environment a command sees: the process's own, with the variables of `.env` in the working
 * folder added where the process does not set them (a variable set in the shell always wins). The
 * file's values stay in memory: pmiyc writes no key anywhere, and a store records only the names
 * of the variables a model's key came from.
 */
export function environmentWithDotEnv(env: NodeJS.ProcessEnv, folder: string): NodeJS.ProcessEnv {
  const path = join(folder, '.env');
  if (!existsSync(path)) return env;
  const fromFile = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  return { ...fromFile, ...env };
}

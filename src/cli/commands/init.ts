import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STARTER_CONFIG, STARTER_DOT_ENV } from '../../config/starter-files.js';
import { InputError } from '../../domain/errors/input-error.js';
import { writeFileAtomically } from '../../io/write-file-atomically.js';
import { STARTER_EXPERIMENT } from '../../studies/people/experiment-text.js';
import { DEFAULT_CONFIG_FILE } from '../shared-options.js';
import type { CliContext } from '../terminal.js';

/** The starter texts of a people study that `pmiyc init` writes. */
const PEOPLE_EXPERIMENT_FILE = 'people-experiment.yaml';

export interface InitOptions {
  readonly force: boolean;
}

/**
 * `pmiyc init [DIR]`: a starter pmiyc.yaml that `pmiyc run` runs as it is (simulated agents, two
 * prompt variants), with commented blocks for real providers, and a .env.example for their keys.
 * Never overwrites a file unless --force.
 */
export async function initCommand(folder: string | undefined, options: InitOptions, context: CliContext): Promise<number> {
  const target = resolve(folder ?? '.');
  const files = [
    [join(target, DEFAULT_CONFIG_FILE), STARTER_CONFIG],
    [join(target, '.env.example'), STARTER_DOT_ENV],
    [join(target, PEOPLE_EXPERIMENT_FILE), STARTER_EXPERIMENT],
  ] as const;
  const existing = files.filter(([path]) => existsSync(path)).map(([path]) => path);
  if (existing.length > 0 && !options.force) {
    throw new InputError(
      `${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}: keep ${existing.length === 1 ? 'it' : 'them'}, or add --force to replace`,
    );
  }
  mkdirSync(target, { recursive: true });
  for (const [path, text] of files) await writeFileAtomically(path, text);
  const here = folder === undefined || resolve(folder) === resolve('.');
  context.stdout.write(
    `${[
      `Wrote ${files.map(([path]) => path).join(' and ')}.`,
      `${here ? '' : `cd ${folder} && `}pmiyc run   runs the experiment in ${DEFAULT_CONFIG_FILE} (simulated agents: no key, no cost), then pmiyc view to look inside.`,
      `For a study with people: edit ${PEOPLE_EXPERIMENT_FILE} (consent, instructions, debrief), then pmiyc people serve --experiment ${PEOPLE_EXPERIMENT_FILE} (docs/design/people.md).`,
      `For real models: uncomment a block under models:, put its key in .env (copy .env.example; .env is read, never written), and list it under experiment:.`,
    ].join('\n')}\n`,
  );
  return 0;
}

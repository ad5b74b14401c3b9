import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../cli/exit-codes.js';
import { ConfigError } from '../../domain/errors/config-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { loadTaxonomy } from './load-taxonomy.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-taxonomy-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ONE_EACH = `name: mine
techniques:
  - id: logos
    name: Logos
    definition: Argues from reasons.
unethical:
  - id: lying
    name: Lying
    definition: Says what is false.
`;

/** What loading rejected with. */
async function failureOf(nameOrPath: string): Promise<Error> {
  return loadTaxonomy(nameOrPath).then(
    () => {
      throw new Error('expected a failure');
    },
    (error: Error) => error,
  );
}

describe('loadTaxonomy', () => {
  it('gives a built-in taxonomy by its name', async () => {
    const loaded = await loadTaxonomy('rhetoric');
    expect(loaded.source).toBe('built in');
    expect(loaded.taxonomy.techniques.map((item) => item.id)).toContain('pathos');
    expect((await loadTaxonomy('techniques')).taxonomy.techniques.length).toBeGreaterThan(30);
  });

  it('reads a taxonomy file by its path', async () => {
    const path = join(folder, 'mine.yaml');
    writeFileSync(path, ONE_EACH);
    expect(await loadTaxonomy(path)).toEqual({
      source: path,
      taxonomy: {
        name: 'mine',
        techniques: [{ id: 'logos', name: 'Logos', definition: 'Argues from reasons.' }],
        unethical: [{ id: 'lying', name: 'Lying', definition: 'Says what is false.' }],
      },
    });
  });

  it('answers a name that is neither a built-in nor a file with the built-in names (exit 2)', async () => {
    const error = await failureOf('rhetorics');
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      'no built-in taxonomy or file named rhetorics: give rhetoric, techniques or persusafety, or the path of a taxonomy YAML file (docs/design/techniques.md)',
    );
    expect(exitCodeOf(error).code).toBe(2);
    // A name an object has of its own is not a built-in.
    expect((await failureOf('constructor')).message).toMatch(/^no built-in taxonomy or file named constructor: give rhetoric, techniques or persusafety/);
  });

  it('answers a file at fault with its path, line and key (exit 2)', async () => {
    const path = join(folder, 'bad.yaml');
    writeFileSync(path, ONE_EACH.replace('id: lying', 'id: Lying'));
    const error = await failureOf(path);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${path}:7: unethical[0].id: "Lying" is not an id: lower-case letters, digits and "-", starting with a letter (e.g. lying)`);
    expect(exitCodeOf(error).code).toBe(2);
  });

  it('refuses a folder and a file over 1 MB through the one reader of input files', async () => {
    const subfolder = join(folder, 'taxonomies');
    mkdirSync(subfolder);
    expect((await failureOf(subfolder)).message).toBe(`${subfolder} is a folder, not a file: give the path of a file in it`);
    const large = join(folder, 'large.yaml');
    writeFileSync(large, `${ONE_EACH}# ${'x'.repeat(2 ** 20)}\n`);
    expect((await failureOf(large)).message).toMatch(/more than the 1 MB pmiyc reads from a taxonomy file/);
  });
});

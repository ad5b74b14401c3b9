import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** Source files (not tests) of a folder of src/, recursively; '.' is all of them. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(SRC, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The files a file imports from src/ (relative imports), resolved to .ts paths. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)].map((match) => join(dirname(file), match[1]!).replace(/\.js$/, '.ts'));
}

const folderOf = (file: string) => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');

const PURE_LAYERS = ['domain', 'protocol', 'engine', 'metrics', 'config', 'runner', 'studies'];
const IMPURE = [/\bprocess\./, /\bMath\.random\b/, /\bDate\.now\b/, /\bnew Date\(/, /from 'node:(fs|child_process|net|http|https|os)/, /from 'better-sqlite3'/];

/**
 * Which folders each folder may import from (STYLE.md: dependencies point one way). Every folder
 * of src/ is listed: a new one fails the test below until its place is decided here.
 */
const ALLOWED_IMPORTS: Record<string, string[]> = {
  domain: ['domain'],
  protocol: ['domain', 'protocol'],
  metrics: ['domain', 'metrics'],
  http: ['domain', 'http'],
  models: ['domain', 'protocol', 'http', 'models'],
  config: ['domain', 'protocol', 'models', 'config'],
  engine: ['domain', 'protocol', 'metrics', 'models', 'engine'],
  datasets: ['domain', 'http', 'datasets'],
  runner: ['domain', 'models', 'config', 'runner'],
  studies: ['domain', 'protocol', 'engine', 'metrics', 'models', 'config', 'datasets', 'runner', 'studies'],
  report: ['domain', 'metrics', 'models', 'config', 'runner', 'studies', 'report'],
  store: ['domain', 'models', 'runner', 'studies', 'store'],
  io: ['domain', 'config', 'models', 'datasets', 'runner', 'studies', 'io'],
  web: ['domain', 'metrics', 'runner', 'studies', 'report', 'io', 'web'],
  cli: ['domain', 'protocol', 'engine', 'metrics', 'models', 'config', 'datasets', 'runner', 'studies', 'report', 'store', 'io', 'web', 'cli'],
};

describe('architecture', () => {
  it('places every folder of src/ in the dependency order', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(ALLOWED_IMPORTS).sort());
  });

  it.each(PURE_LAYERS)('src/%s touches no clock, randomness, process, file system or database', (layer) => {
    for (const file of sourceFiles(layer)) {
      const text = withoutComments(readFileSync(file, 'utf8'));
      for (const pattern of IMPURE) expect(text, `${relative(SRC, file)} matches ${pattern}`).not.toMatch(pattern);
    }
  });

  it.each(Object.keys(ALLOWED_IMPORTS))('src/%s imports only from the folders below it', (layer) => {
    for (const file of sourceFiles(layer)) {
      for (const target of importsOf(file)) {
        expect(ALLOWED_IMPORTS[layer], `${relative(SRC, file)} imports ${relative(SRC, target)}`).toContain(folderOf(target));
      }
    }
  });

  it('has no import cycle between files, type-only imports included', () => {
    const graph = new Map(sourceFiles('.').map((file) => [file, importsOf(file)]));
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((entry) => relative(SRC, entry)).join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('keeps SQLite inside src/store', () => {
    const offenders = sourceFiles('.').filter((file) => folderOf(file) !== 'store' && /from 'better-sqlite3'/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it("loads a command's code only when that command runs: nothing the CLI loads at start imports src/cli/commands", () => {
    // Static imports only (type-only ones are erased); the program loads each command's module in its action.
    const runtimeImportsOf = (file: string) =>
      [...withoutComments(readFileSync(file, 'utf8')).matchAll(/^import (?!type )[^;]*?from '(\.\.?\/[^']+)'/gms)].map((match) =>
        join(dirname(file), match[1]!).replace(/\.js$/, '.ts'),
      );
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of runtimeImportsOf(file)) visit(imported);
    };
    visit(join(SRC, 'cli', 'main.ts'));
    expect(loaded.size).toBeGreaterThan(5);
    expect([...loaded].map((file) => relative(SRC, file)).filter((file) => file.startsWith('cli/commands/'))).toEqual([]);
  });

  it('reads process.env only in the CLI', () => {
    const offenders = sourceFiles('.').filter((file) => folderOf(file) !== 'cli' && /process\.env/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(join(SRC, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const PURE_LAYERS = ['domain', 'protocol', 'engine', 'metrics', 'runner', 'studies'];
const IMPURE = [/\bprocess\./, /\bMath\.random\b/, /\bDate\.now\b/, /\bnew Date\(/, /from 'node:(fs|child_process|net|http|https)/, /from 'better-sqlite3'/];

/** Which layers each layer may import from (STYLE.md: dependencies point one way). */
const ALLOWED_IMPORTS: Record<string, string[]> = {
  domain: ['domain'],
  protocol: ['domain', 'protocol'],
  metrics: ['domain', 'metrics'],
  engine: ['domain', 'protocol', 'metrics', 'models', 'engine'],
  runner: ['domain', 'protocol', 'engine', 'models', 'runner'],
  annotation: ['domain', 'annotation', 'report'],
  studies: ['domain', 'protocol', 'models', 'datasets', 'runner', 'studies'],
};

describe('architecture', () => {
  it.each(PURE_LAYERS)('src/%s touches no clock, randomness, process, file system or database', (layer) => {
    for (const file of sourceFiles(layer)) {
      const text = withoutComments(readFileSync(file, 'utf8'));
      for (const pattern of IMPURE) expect(text, `${relative(SRC, file)} matches ${pattern}`).not.toMatch(pattern);
    }
  });

  it.each(Object.keys(ALLOWED_IMPORTS))('src/%s imports only from the layers below it', (layer) => {
    for (const file of sourceFiles(layer)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
        const target = relative(SRC, join(file, '..', match[1]!)).split('/')[0]!;
        expect(ALLOWED_IMPORTS[layer], `${relative(SRC, file)} imports ${match[1]}`).toContain(target.replace(/\.js$/, ''));
      }
    }
  });

  it('reads process.env only in the CLI', () => {
    const offenders = sourceFiles('.').filter((file) => !relative(SRC, file).startsWith('cli/') && /process\.env/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Files under `folder` (relative to the root) whose names end in `suffix`, as root-relative paths. */
function filesUnder(folder: string, suffix: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/**
 * What a reader cannot follow: the project's own issue numbers ("issue 29"), and a spec or a style
 * guide the repository does not hold ("SPEC 1.5", "STYLE.md"). A user-facing text names the design
 * note that explains instead.
 */
const CITATIONS = [/\bissues? #?\d+/i, /\bSPEC\b/, /\bSTYLE\.md\b/];
const citationsIn = (text: string) => CITATIONS.flatMap((pattern) => pattern.exec(text)?.[0] ?? []);

/** The text of every string literal and template part of a TypeScript file: what a command, a report or a page may show. */
function stringLiterals(path: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The relative Markdown links of a document, as paths from the root. */
function linksOf(path: string): string[] {
  return [...read(path).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => relative(ROOT, join(ROOT, dirname(path), target)));
}

describe('what a newcomer reads', () => {
  it('cites no issue number, spec or style guide of the project in the README, the documents, or any text the code shows', () => {
    const documents = ['README.md', ...filesUnder('docs', '.md')].flatMap((path) =>
      read(path)
        .split('\n')
        .flatMap((line, index) => citationsIn(line).map((citation) => `${path}:${index + 1}: ${citation}`)),
    );
    // Only a file whose text has a citation somewhere (most are in comments, which may keep history) is parsed.
    const sources = filesUnder('src', '.ts')
      .filter((path) => !path.endsWith('.test.ts') && citationsIn(read(path)).length > 0)
      .flatMap((path) => stringLiterals(path).flatMap(({ line, text }) => citationsIn(text).map((citation) => `${path}:${line}: ${citation}`)));
    expect([...documents, ...sources]).toEqual([]);
  });

  it('reaches every design note from the README: the README links docs/README.md on its first screen, and that links every note', () => {
    const firstScreen = read('README.md').split('\n').slice(0, 30).join('\n');
    expect(firstScreen).toContain('](docs/README.md)');
    const linked = new Set(linksOf('docs/README.md'));
    const notes = filesUnder('docs', '.md').filter((path) => path !== join('docs', 'README.md'));
    expect(notes.length).toBeGreaterThan(20);
    expect(notes.filter((note) => !linked.has(note))).toEqual([]);
    // And every link there leads to a file that is here.
    const files = new Set([...filesUnder('docs', '.md'), ...filesUnder('bench', '.md')]);
    expect([...linked].filter((target) => !files.has(target))).toEqual([]);
  });

  it('says in the README what pmiyc init writes, every file of it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pmiyc-init-docs-'));
    try {
      const result = await runCli(['init', folder]);
      expect(result.code).toBe(0);
      const written = readdirSync(folder);
      expect(written).toContain('people-experiment.yaml');
      const readme = read('README.md');
      const initLine = readme.split('\n').find((line) => line.startsWith('pmiyc init '));
      expect(initLine).toBeDefined();
      for (const file of written) expect(initLine).toContain(file);
      const paragraph = readme.slice(readme.indexOf('`pmiyc init` writes'), readme.indexOf('\n\n', readme.indexOf('`pmiyc init` writes')));
      for (const file of written) expect(paragraph).toContain(`\`${file}\``);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

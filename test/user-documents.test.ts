import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
 * guide the repository does not hold ("SPEC 1.5", an upper-case style file: the house style is
 * docs/style.md). A user-facing text names the design note that explains instead.
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

/** The relative Markdown links of a document, as paths from the root, each with its `#anchor` if it has one. */
function linksWithAnchorsOf(path: string): Array<{ target: string; anchor?: string }> {
  return [...read(path).matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)]
    .filter((match) => !/^[a-z]+:/.test(match[1]!))
    .map((match) => ({
      target: match[1] === '' ? path : relative(ROOT, join(ROOT, dirname(path), match[1]!)),
      ...(match[2] ? { anchor: match[2] } : {}),
    }));
}

/** The relative Markdown links of a document, as paths from the root. */
const linksOf = (path: string) => linksWithAnchorsOf(path).map((link) => link.target);

/** The anchors GitHub gives a document's headings: lower case, spaces as hyphens, punctuation dropped. */
function headingAnchorsOf(path: string): Set<string> {
  const withoutCode = read(path).replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-'),
    ),
  );
}

/** Paths from the root that a document names in backquotes (`docs/design/people.md`, `test/fixtures/`), globs and placeholders left out. */
const rootPathsNamedIn = (path: string) => [...read(path).matchAll(/`((?:docs|src|test|bench|scripts|\.ci)\/[\w./-]+)`/g)].map((match) => match[1]!);

/** Every Markdown document of the repository a reader may open: the README, docs/, bench/ and the fixtures' licences. */
const markdownDocuments = () => ['README.md', ...filesUnder('docs', '.md'), ...filesUnder('bench', '.md'), join('test', 'fixtures', 'README.md')];

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

  it('links and names only files that are here, and only headings that are in them', () => {
    const documents = markdownDocuments();
    expect(documents.length).toBeGreaterThan(25);
    const broken = documents.flatMap((path) => [
      ...linksWithAnchorsOf(path).flatMap(({ target, anchor }) => {
        if (!existsSync(join(ROOT, target))) return [`${path}: link to ${target}, which does not exist`];
        if (anchor && target.endsWith('.md') && !headingAnchorsOf(target).has(anchor))
          return [`${path}: link to ${target}#${anchor}, a heading it does not have`];
        return [];
      }),
      ...rootPathsNamedIn(path)
        .filter((named) => !existsSync(join(ROOT, named)))
        .map((named) => `${path}: names ${named}, which does not exist`),
    ]);
    expect(broken).toEqual([]);
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

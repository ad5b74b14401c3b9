// Lists the functions of src/ (tests left out) longer than a number of lines, longest first:
// `node scripts/long-functions.mjs [most lines, default 80]`. Every kind of function counts: declarations,
// function expressions, arrow functions (assigned to a const or passed as an argument), methods,
// constructors and accessors. A function's length is its lines from its first to its last, both counted
// (a function nested in another counts in both). test/architecture.test.ts keeps src/ under the limit.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');

/** The source files (not tests) under a folder, recursively. */
function sourceFilesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The name a reader would look for: the declared name, the const or property it is assigned to, or what it is an argument of. */
function functionName(node) {
  if (node.name !== undefined) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined)
    return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().replace(/\s+/g, ' ').slice(-40)})`;
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** Every function of one file with its first line (1-based) and its length in lines. */
function functionsOf(path) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file: relative(ROOT, path), name: functionName(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The functions of src/ (tests left out) longer than `mostLines`, longest first, each with its file
 * (relative to the repository), its name, its first line and its length in lines.
 * @param {number} mostLines
 * @returns {{ file: string; name: string; line: number; lines: number }[]}
 */
export function longFunctions(mostLines) {
  return sourceFilesUnder(SRC)
    .flatMap(functionsOf)
    .filter((found) => found.lines > mostLines)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const mostLines = Number(process.argv[2] ?? 80);
  for (const found of longFunctions(mostLines)) console.log(`${String(found.lines).padStart(4)}  ${found.file}:${found.line}  ${found.name}`);
}

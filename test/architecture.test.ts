import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { longFunctions } from '../scripts/long-functions.mjs';

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

/** A file's relative imports and re-exports (paths under src/, .ts) and whether each is type-only (erased from the build). */
function importStatementsOf(path: string, text: string): { target: string; typeOnly: boolean }[] {
  return [...withoutComments(text).matchAll(/^(import|export) (type )?[^;]*?from '(\.\.?\/[^']+)'/gms)].map((match) => ({
    target: join(dirname(path), match[3]!).replace(/\.js$/, '.ts'),
    typeOnly: match[2] !== undefined,
  }));
}

/** The files a file imports for their values (static imports and re-exports that are not type-only: those are erased). */
const valueImportsOf = (file: string): string[] =>
  importStatementsOf(file, readFileSync(file, 'utf8'))
    .filter((statement) => !statement.typeOnly)
    .map((statement) => statement.target);

/**
 * Which side of the browser line a file (its path under src/) is on: the pages' code (DOM types, bundled
 * by rolldown: src/web/browser, shared by the pages, and each product's src/web/<product>/browser), the
 * wire both sides import (src/web/wire), or the Node program.
 */
function sideOf(path: string): 'browser' | 'wire' | 'node' {
  if (/^web\/(?:[^/]+\/)?browser\//.test(path)) return 'browser';
  return path.startsWith('web/wire/') ? 'wire' : 'node';
}
const inBrowser = (file: string) => sideOf(relative(SRC, file)) === 'browser';

/**
 * Why an import of `target` by `file` (paths under src/) crosses the browser line the wrong way. The
 * pages take values from their own code and the wire alone, so that no server value is bundled into a
 * page (zod with it, say) or copied to keep it out; the wire takes values only from itself and from
 * domain modules that import no value (`leaf`); only page code imports page code. Types cross freely.
 */
function browserLineOffence(file: string, target: string, typeOnly: boolean, leaf: (path: string) => boolean): string | null {
  const [from, to] = [sideOf(file), sideOf(target)];
  if (to === 'browser' && from !== 'browser') return `${file} imports the page code ${target}`;
  if (typeOnly) return null;
  if (from === 'browser' && to === 'node') return `${file} takes a value from ${target}: the pages take values from src/web/wire alone`;
  if (from === 'wire' && to === 'node' && !(target.startsWith('domain/') && leaf(target)))
    return `${file} takes a value from ${target}: the wire takes values from itself and from domain modules that import none`;
  return null;
}

/** What the wire and the domain modules it takes values from may not do: import a package or Node, run for a side effect, or touch a global of Node or the DOM. */
const WIRE_IMPURE = [
  /^import (?!type )[^;]*?from '(?!\.)/m,
  /^import '/m,
  /\b(?:process|Buffer|require|document|window|globalThis|localStorage|sessionStorage|fetch)\b/,
  /\bMath\.random\b|\bDate\.now\b|\bnew Date\(/,
];

/** The most files a folder of src/ holds at one level, tests beside their files counted: a room with more holds families, each of which goes in a sub-folder named for what it holds. */
const MOST_FILES_IN_A_FOLDER = 30;

/** Every folder of src/ ('.' for src/ itself) with the number of files directly in it. */
function filesPerFolder(): { folder: string; files: number }[] {
  const folders = readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)));
  return ['.', ...folders].map((folder) => ({
    folder,
    files: readdirSync(join(SRC, folder), { withFileTypes: true }).filter((entry) => entry.isFile()).length,
  }));
}

const PURE_LAYERS = ['domain', 'protocol', 'engine', 'metrics', 'config', 'runner', 'studies'];
const IMPURE = [/\bprocess\./, /\bMath\.random\b/, /\bDate\.now\b/, /\bnew Date\(/, /from 'node:(fs|child_process|net|http|https|os)/, /from 'better-sqlite3'/];

/**
 * Which folders each folder may import from (docs/style.md: imports point down the layers). Every folder
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
  // A protocol beside PMIYC's (APE, PersuSafety, SYCON-Bench): one folder each, on the shared parts; only the kit and the CLI know them.
  protocols: ['domain', 'protocol', 'engine', 'metrics', 'models', 'config', 'datasets', 'runner', 'studies', 'protocols'],
  kit: ['domain', 'protocol', 'engine', 'metrics', 'models', 'config', 'datasets', 'runner', 'studies', 'report', 'store', 'io', 'web', 'protocols', 'kit'],
  cli: [
    'domain',
    'protocol',
    'engine',
    'metrics',
    'models',
    'config',
    'datasets',
    'runner',
    'studies',
    'report',
    'store',
    'io',
    'web',
    'protocols',
    'kit',
    'cli',
  ],
};

/**
 * The commands that run or feed a study, each of which goes through the study kit (src/kit): the
 * kit prepares the inputs (new or resumed), checks the models, opens the store, runs the session
 * and words its end, so that a library caller can do what the command does.
 */
const STUDY_COMMANDS = ['run', 'demo', 'consistency', 'judge', 'judge-synthesize', 'analyze', 'annotate', 'people', 'import-persusafety'];
/** What a study command leaves to the kit: the store, the session (runner) and the files a study reads (io). */
const KIT_ONLY = ['store', 'runner', 'io'];

/** Why a study command's module (its path under src/ and its imports' paths) is not thin: it reaches past the kit. */
function thinCommandOffences(file: string, targets: readonly string[]): string[] {
  const folders = targets.map((target) => target.split('/')[0]!);
  const past = targets.filter((target) => KIT_ONLY.includes(target.split('/')[0]!)).map((target) => `${file} imports ${target}: go through src/kit`);
  const throughKit = folders.includes('kit') || targets.some((target) => target.startsWith('cli/commands/'));
  return [...past, ...(throughKit ? [] : [`${file} does not go through src/kit`])];
}

/** An import (static, dynamic or required) of a module that opens connections or speaks HTTP. */
const NETWORK_IMPORT = /(?:\bfrom|\bimport\(|\brequire\()\s*'(?:node:)?(?:http|https|http2|net|tls)'/;
const UNDICI_IMPORT = /(?:\bfrom|\bimport\(|\brequire\()\s*'undici(?:\/[^']*)?'/;
const FETCH_CALL = /\bfetch\s*\(/;
/** HTTP's wire format: the version of a status or request line (a multipart body's CRLFs are a body's format, not HTTP's). */
const HTTP_WIRE = /HTTP\/[12](?:\.[01])?\b/;
/** What a server needs from node:http and node:net: no request, get, connect or agent. */
const SERVING_NAMES = new Set(['createServer', 'IncomingMessage', 'ServerResponse', 'Server', 'AddressInfo', 'Socket']);
const TRANSPORT = 'http/http-transport.ts';

/**
 * Why a file (its path under src/, its text without comments) breaks the rule that every HTTP request
 * pmiyc sends goes through the transport: only the transport imports undici or speaks HTTP's wire
 * format; node:http, https, http2, net and tls are imported only by src/web's servers, and there only
 * for serving (named imports from SERVING_NAMES); only src/web's page scripts (run in the browser) call fetch.
 */
function httpOffences(file: string, text: string): string[] {
  const offences: string[] = [];
  const inWeb = file.startsWith('web/');
  if (UNDICI_IMPORT.test(text) && file !== TRANSPORT) offences.push('imports undici');
  if (HTTP_WIRE.test(text) && file !== TRANSPORT) offences.push("writes or reads HTTP's wire format");
  if (FETCH_CALL.test(text) && !inWeb) offences.push('calls fetch');
  for (const statement of text.match(/^import [^;]*?;/gms) ?? []) {
    if (!NETWORK_IMPORT.test(statement)) continue;
    const names =
      /\{([^}]*)\}/
        .exec(statement)?.[1]
        ?.split(',')
        .map((name) => name.replace(/^\s*type\s+/, '').trim()) ?? [];
    const serving = /^import (?:type )?\{[^}]*\} from/s.test(statement) && names.every((name) => name === '' || SERVING_NAMES.has(name));
    if (!inWeb || !serving) offences.push(`imports ${/'([^']+)'/.exec(statement)![1]}${inWeb ? ' for more than serving' : ''}`);
  }
  if (/\b(?:import|require)\(\s*'(?:node:)?(?:http|https|http2|net|tls)'/.test(text)) offences.push('loads a network module at run time');
  return offences;
}

/** The one chooser of "which study" a reader shows (docs/design/architecture.md, "Choosing a study"). */
const STUDY_CHOOSER = 'studies/chosen-study.ts';
/** A type or an exported function that chooses a study: a second chooser beside the one. */
const CHOOSER_DECLARED =
  /^(?:export )?(?:interface|type|class) ChosenStud(?:y|ies)\b|^export (?:async )?function \w*(?:[cC]hoose|[lL]atest|[pP]ick)\w*Stud(?:y|ies)/m;
/**
 * Files besides the chooser and the store (which answers it) that read a kind's list of studies: a
 * resume names the study it continues (the latest made when none is named), which is not a reader's
 * choice.
 */
const STUDY_LISTS_READ_TO_RESUME = ['studies/consistency/study-to-resume.ts', 'io/prepare/prepare-analysis.ts'];

/** The most lines a function of src/ may have (scripts/long-functions.mjs counts them): a longer one does several jobs, each of which gets a name. */
const MOST_LINES_IN_A_FUNCTION = 80;

/**
 * Functions of src/ allowed over MOST_LINES_IN_A_FUNCTION, as 'file: name' (`node scripts/long-functions.mjs`
 * lists them). Only two kinds belong here for good: a data table (one long literal a reader scans, not a
 * sequence of steps) and the schema history of the store (src/store/migrations.ts, which must read as
 * written when each version shipped). Neither has a function that long today. Anything else here is a
 * debt with a TODO; an entry that is no longer too long fails the test, so the list only shrinks.
 */
const LONG_FUNCTIONS_ALLOWED: string[] = [];

describe('architecture', () => {
  it('places every folder of src/ in the dependency order', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(ALLOWED_IMPORTS).sort());
  });

  it(`keeps every folder of src/ to at most ${MOST_FILES_IN_A_FOLDER} files at one level (families go in sub-folders)`, () => {
    const folders = filesPerFolder();
    const crowded = folders.filter(({ files }) => files > MOST_FILES_IN_A_FOLDER).map(({ folder, files }) => `src/${folder}: ${files} files`);
    expect(folders.length).toBeGreaterThan(40);
    expect(folders.find(({ folder }) => folder === 'store')?.files).toBeGreaterThan(5);
    expect(crowded).toEqual([]);
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

  it("keeps each protocol to its own folder: src/protocols/X imports no other protocol's folder", () => {
    for (const file of sourceFiles('protocols')) {
      const own = relative(join(SRC, 'protocols'), file).split('/')[0]!;
      for (const target of importsOf(file)) {
        const [folder, protocol] = relative(SRC, target).split('/');
        if (folder !== 'protocols' || protocol === undefined || protocol.endsWith('.ts')) continue;
        expect(protocol, `${relative(SRC, file)} imports ${relative(SRC, target)}`).toBe(own);
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
    // Imported or required by name (open-database.ts requires it on first use): either way the name is a string.
    const offenders = sourceFiles('.').filter(
      (file) => folderOf(file) !== 'store' && /['"]better-sqlite3['"]/.test(withoutComments(readFileSync(file, 'utf8'))),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it("loads a command's code only when that command runs: nothing the CLI loads at start imports src/cli/commands", () => {
    // Static imports only (type-only ones are erased); the program loads each command's module in its action.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of valueImportsOf(file)) visit(imported);
    };
    visit(join(SRC, 'cli', 'main.ts'));
    expect(loaded.size).toBeGreaterThan(5);
    expect([...loaded].map((file) => relative(SRC, file)).filter((file) => file.startsWith('cli/commands/'))).toEqual([]);
  });

  it('keeps study commands thin: each goes through src/kit and imports nothing from store/, runner/ or io/', () => {
    const offences = STUDY_COMMANDS.flatMap((command) => {
      const file = join(SRC, 'cli', 'commands', `${command}.ts`);
      return thinCommandOffences(
        relative(SRC, file),
        importsOf(file).map((target) => relative(SRC, target)),
      );
    });
    expect(offences).toEqual([]);
  });

  it('the thin-command rule catches a command that opens the store or prepares its inputs itself', () => {
    expect(thinCommandOffences('cli/commands/x.ts', ['store/result-store.ts', 'kit/study-command.ts'])).toEqual([
      'cli/commands/x.ts imports store/result-store.ts: go through src/kit',
    ]);
    expect(thinCommandOffences('cli/commands/x.ts', ['io/prepare/prepare-judge.ts', 'studies/judge/judge-study.ts'])).toEqual([
      'cli/commands/x.ts imports io/prepare/prepare-judge.ts: go through src/kit',
      'cli/commands/x.ts does not go through src/kit',
    ]);
    expect(thinCommandOffences('cli/commands/x.ts', ['kit/kinds/judge-kind.ts', 'cli/terminal.ts'])).toEqual([]);
  });

  it("keeps the browser line: the pages take values from their own code and src/web/wire alone, the wire from itself and domain's leaves", () => {
    const leaf = (path: string) => valueImportsOf(join(SRC, path)).length === 0;
    const offences = sourceFiles('.').flatMap((file) =>
      importStatementsOf(file, readFileSync(file, 'utf8')).flatMap(
        ({ target, typeOnly }) => browserLineOffence(relative(SRC, file), relative(SRC, target), typeOnly, leaf) ?? [],
      ),
    );
    expect(sourceFiles('web').filter(inBrowser).length).toBeGreaterThan(2);
    expect(offences).toEqual([]);
  });

  it('keeps the wire plain: src/web/wire and the domain modules it takes values from import no package, no Node and nothing for its side effects, and touch no global', () => {
    const wire = sourceFiles('web/wire');
    const taken = wire.flatMap(valueImportsOf).filter((target) => sideOf(relative(SRC, target)) !== 'wire');
    const offenders = [...wire, ...new Set(taken)].flatMap((file) =>
      WIRE_IMPURE.filter((pattern) => pattern.test(withoutComments(readFileSync(file, 'utf8')))).map((pattern) => `${relative(SRC, file)} matches ${pattern}`),
    );
    expect(wire.length).toBeGreaterThan(2);
    expect(taken.length).toBeGreaterThan(0);
    expect(offenders).toEqual([]);
  });

  it.each([
    ['web/viewer/browser/x.ts', 'web/viewer/view-bundle.ts', false, 'takes a value from web/viewer/view-bundle.ts'],
    ['web/people/browser/x.ts', 'domain/printable-text.ts', false, 'the pages take values from src/web/wire alone'],
    ['web/browser/dom.ts', 'studies/tournament/tournament-browse.ts', false, 'takes a value from'],
    ['web/wire/x.ts', 'web/viewer/view-bundle.ts', false, 'the wire takes values from itself'],
    ['web/wire/x.ts', 'domain/random.ts', false, 'the wire takes values from itself'],
    ['web/viewer/view-page.ts', 'web/viewer/browser/view-app.ts', true, 'imports the page code'],
    ['web/wire/x.ts', 'web/browser/dom.ts', false, 'imports the page code'],
  ])('the browser line catches %s importing %s (type-only: %s)', (file, target, typeOnly, offence) => {
    expect(browserLineOffence(file, target, typeOnly, (path) => path !== 'domain/random.ts')).toContain(offence);
  });

  it('the browser line lets the pages take values from the wire and types from anywhere, and the wire re-export a domain leaf', () => {
    const leaf = () => true;
    expect(browserLineOffence('web/viewer/browser/x.ts', 'web/wire/bundle-files.ts', false, leaf)).toBeNull();
    expect(browserLineOffence('web/viewer/browser/x.ts', 'web/browser/dom.ts', false, leaf)).toBeNull();
    expect(browserLineOffence('web/viewer/browser/x.ts', 'studies/tournament/tournament-browse.ts', true, leaf)).toBeNull();
    expect(browserLineOffence('web/wire/x.ts', 'domain/printable-text.ts', false, leaf)).toBeNull();
    expect(browserLineOffence('web/viewer/view-bundle.ts', 'web/wire/bundle-files.ts', false, leaf)).toBeNull();
  });

  it('sends HTTP only through the transport: undici there alone, node:http and node:net only in the servers of src/web', () => {
    const offenders = sourceFiles('.').flatMap((file) =>
      httpOffences(relative(SRC, file), withoutComments(readFileSync(file, 'utf8'))).map((offence) => `${relative(SRC, file)} ${offence}`),
    );
    expect(offenders).toEqual([]);
    expect(existsSync(join(SRC, TRANSPORT))).toBe(true);
  });

  it.each([
    ['models/providers/x.ts', "import { request } from 'node:http';", 'imports node:http'],
    ['models/providers/x.ts', "import * as tls from 'node:tls';", 'imports node:tls'],
    ['datasets/x.ts', 'const response = await fetch(url);', 'calls fetch'],
    ['models/batch/x.ts', "const { Pool } = await import('undici');", 'imports undici'],
    ['http/other.ts', "import type { Dispatcher } from 'undici';", 'imports undici'],
    ['models/x.ts', "socket.write('POST /v1/chat/completions HTTP/1.1\\r\\n');", "writes or reads HTTP's wire format"],
    ['web/x.ts', "import { createServer, request } from 'node:http';", 'imports node:http for more than serving'],
    ['web/x.ts', "import * as https from 'node:https';", 'imports node:https for more than serving'],
    ['web/x.ts', "const net = require('node:net');", 'loads a network module at run time'],
  ])('the HTTP rule catches %s doing `%s`', (file, text, offence) => {
    expect(httpOffences(file, text)).toContain(offence);
  });

  it('the HTTP rule lets a web server serve, and the transport use undici', () => {
    expect(httpOffences('web/x.ts', "import { createServer, type IncomingMessage } from 'node:http';\nimport type { AddressInfo } from 'node:net';")).toEqual(
      [],
    );
    expect(httpOffences(TRANSPORT, "import type { Dispatcher } from 'undici';\nconst undici = await import('undici');")).toEqual([]);
  });

  it(`chooses the study a report, the viewer, show or export reads in one place: ${STUDY_CHOOSER}`, () => {
    const files = sourceFiles('.').map((file) => ({ path: relative(SRC, file), text: withoutComments(readFileSync(file, 'utf8')) }));
    const others = files.filter((file) => file.path !== STUDY_CHOOSER);
    expect(others.filter((file) => CHOOSER_DECLARED.test(file.text)).map((file) => file.path)).toEqual([]);
    const listing = others.filter((file) => !file.path.startsWith('store/') && /\.studyNames\(/.test(file.text)).map((file) => file.path);
    expect(listing.filter((path) => !STUDY_LISTS_READ_TO_RESUME.includes(path))).toEqual([]);
  });

  it.each([
    ['interface ChosenStudy {', true],
    ['export function chooseAnalysisStudy(source: Source) {', true],
    ['export function latestStudyOf(run: string) {', true],
    ['function chooseRecords(store: Store) {', false],
    ["import { type ChosenStudy, chooseStudy } from '../../studies/chosen-study.js';", false],
  ])('the chooser rule calls `%s` a second chooser: %s', (text, caught) => {
    expect(CHOOSER_DECLARED.test(text)).toBe(caught);
  });

  it('reads process.env only in the CLI', () => {
    const offenders = sourceFiles('.').filter((file) => folderOf(file) !== 'cli' && /process\.env/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it("makes every secret a link or page carries with newLinkToken, a people study's links in web/people/people-links.ts alone, and cli/ no people link nor a server's option check", () => {
    const tokenMakers = sourceFiles('.').filter((file) => /randomBytes\([^)]*\)\.toString\('base64url'\)/.test(withoutComments(readFileSync(file, 'utf8'))));
    expect(tokenMakers.map((file) => relative(SRC, file))).toEqual(['web/server/link-tokens.ts']);
    const minting = sourceFiles('.').filter((file) => /\bnewLinkToken\b/.test(withoutComments(readFileSync(file, 'utf8'))));
    expect(minting.map((file) => relative(SRC, file)).sort()).toEqual([
      'cli/commands/view.ts',
      'web/annotation/annotation-server.ts',
      'web/people/people-links.ts',
      'web/server/link-tokens.ts',
    ]);
    const peopleCommand = readFileSync(join(SRC, 'cli/commands/people.ts'), 'utf8');
    expect(peopleCommand).not.toMatch(/link-tokens|people-server|new URL\(|LOCAL_HOST/);
  });

  it(`keeps every function of src/ to at most ${MOST_LINES_IN_A_FUNCTION} lines, but for the commented allow-list`, () => {
    const long = longFunctions(MOST_LINES_IN_A_FUNCTION).map(({ file, name }) => `${file}: ${name}`);
    expect(long.filter((found) => !LONG_FUNCTIONS_ALLOWED.includes(found))).toEqual([]);
    expect(LONG_FUNCTIONS_ALLOWED.filter((allowed) => !long.includes(allowed))).toEqual([]);
  });

  it('counts every kind of function in src/, arrow functions and methods too', () => {
    const all = longFunctions(0);
    expect(all.length).toBeGreaterThan(1000);
    const named = (file: string, name: string) => all.find((found) => found.file === `src/${file}` && found.name === name);
    expect(named('store/migrations.ts', 'migrate')?.lines).toBeGreaterThan(5);
    expect(named('store/commit-queue.ts', 'constructor')).toBeDefined();
    expect(named('store/commit-queue.ts', 'flush')).toBeDefined();
    expect(named('store/records/call-messages.ts', 'packText')).toBeDefined();
  });
});

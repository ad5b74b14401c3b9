// Two kinds of output (docs/design/bundled-cli.md, docs/design/view.md):
// - The bundled CLI: src/cli/main.ts and everything it loads, its npm dependencies included, written
//   over tsc's dist/cli/main.js. Every chunk sits beside main.js in dist/cli, so
//   `new URL('../../package.json', import.meta.url)` resolves the same from any of them.
// - The pages' browser scripts: each product's src/web/<product>/browser/<name>.ts as one classic script
//   (an IIFE, no imports left) in dist/web/browser/<name>.js, which the servers send inline.
import { defineConfig } from 'rolldown';

/** Packages with native bindings, loaded from node_modules as installed (Node's built-ins stay external too). */
const NATIVE_PACKAGES = /^(better-sqlite3|node-llama-cpp)(\/|$)/;

/** The pages whose scripts are built, by the product folder of src/web they are in and their entry name. */
const PAGE_SCRIPTS = [
  ['viewer', 'view-app'],
  ['annotation', 'annotation-app'],
  ['people', 'people-app'],
];

const cli = {
  input: { main: 'src/cli/main.ts' },
  platform: 'node',
  external: NATIVE_PACKAGES,
  output: {
    dir: 'dist/cli',
    format: 'esm',
    entryFileNames: '[name].js',
    // The hash keeps a chunk from overwriting a module tsc wrote to dist/cli (program.js, commands/...).
    chunkFileNames: '[name]-[hash].js',
  },
};

// One build per page: an IIFE cannot be split into chunks, and each page gets only its own code.
const pages = PAGE_SCRIPTS.map(([product, name]) => ({
  input: { [name]: `src/web/${product}/browser/${name}.ts` },
  platform: 'browser',
  tsconfig: 'src/web/browser/tsconfig.json',
  // strict: the modules were written as ES modules, which are strict; a classic script is not unless it says so.
  output: { dir: 'dist/web/browser', format: 'iife', entryFileNames: '[name].js', strict: true },
}));

export default defineConfig([cli, ...pages]);

// The bundled CLI (docs/design/bundled-cli.md): src/cli/main.ts and everything it loads, its npm
// dependencies included, written over tsc's dist/cli/main.js. Every chunk sits beside main.js in
// dist/cli, so `new URL('../../package.json', import.meta.url)` resolves the same from any of them.
import { defineConfig } from 'rolldown';

/** Packages with native bindings, loaded from node_modules as installed (Node's built-ins stay external too). */
const NATIVE_PACKAGES = /^(better-sqlite3|node-llama-cpp)(\/|$)/;

export default defineConfig({
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
});

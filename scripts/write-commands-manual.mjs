// Writes docs/commands.md from the built program (dist/): `npm run docs:commands` builds, then runs this.
// test/commands-manual.test.ts fails when the committed file differs from what this writes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS_MANUAL_FILE, commandsManual } from '../dist/cli/commands-manual.js';

const root = fileURLToPath(new URL('../', import.meta.url));
// From an empty folder: a pmiyc.yaml where this is run would show as --config's default.
const emptyFolder = mkdtempSync(join(tmpdir(), 'pmiyc-manual-'));
try {
  process.chdir(emptyFolder);
  writeFileSync(join(root, COMMANDS_MANUAL_FILE), commandsManual());
} finally {
  process.chdir(root);
  rmSync(emptyFolder, { recursive: true, force: true });
}
console.log(`wrote ${COMMANDS_MANUAL_FILE}`);

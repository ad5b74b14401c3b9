import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS_MANUAL_FILE, commandsManual, WRITE_COMMANDS_MANUAL } from '../src/cli/commands-manual.js';
import { runCli } from './cli-helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The manual as the program writes it now, from an empty folder (a pmiyc.yaml there would show as --config's default). */
function manualFromTheProgram(): string {
  const emptyFolder = mkdtempSync(join(tmpdir(), 'pmiyc-manual-test-'));
  const before = process.cwd();
  try {
    process.chdir(emptyFolder);
    return commandsManual();
  } finally {
    process.chdir(before);
    rmSync(emptyFolder, { recursive: true, force: true });
  }
}

describe('docs/commands.md, the command manual', () => {
  it('is what the program declares today: a change to a command, an option or an example rewrites it', () => {
    const committed = readFileSync(join(ROOT, COMMANDS_MANUAL_FILE), 'utf8').split('\n');
    const written = manualFromTheProgram().split('\n');
    const firstDifference = written.findIndex((line, index) => line !== committed[index]);
    const where = firstDifference === -1 ? 'its end' : `line ${firstDifference + 1}: "${written[firstDifference]}"`;
    expect(
      committed.length === written.length && firstDifference === -1,
      `${COMMANDS_MANUAL_FILE} differs from the program's help at ${where}: run ${WRITE_COMMANDS_MANUAL} and commit the file`,
    ).toBe(true);
  });

  it.each([[['run']], [['annotate', 'export']], [['judge']]])('holds the page pmiyc %s --help prints, word for word', async (words) => {
    const emptyFolder = mkdtempSync(join(tmpdir(), 'pmiyc-manual-help-'));
    const result = await runCli([...words, '--help'], { cwd: emptyFolder }).finally(() => rmSync(emptyFolder, { recursive: true, force: true }));
    expect(result.code).toBe(0);
    const manual = readFileSync(join(ROOT, COMMANDS_MANUAL_FILE), 'utf8');
    const section = manual.slice(manual.indexOf(`\`pmiyc ${words.join(' ')}\`\n\n\`\`\`text\n`));
    const page = section.slice(section.indexOf('```text\n') + 8, section.indexOf('\n```\n'));
    expect(page).toBe(result.stdout.trimEnd());
  });
});

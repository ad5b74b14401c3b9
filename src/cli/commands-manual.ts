import type { Command } from '@commander-js/extra-typings';
import { buildProgram } from './program.js';

/** Where the manual is kept, from the repository's root, and the command that writes it there. */
export const COMMANDS_MANUAL_FILE = 'docs/commands.md';
export const WRITE_COMMANDS_MANUAL = 'npm run docs:commands';

/** Commander wraps help at 80 columns when standard output is not a terminal: the manual shows what `pmiyc ... --help | less` shows. */
const HELP_WIDTH_COLUMNS = 80;

/** How wide the lines of the manual's own text are, as in the other documents. */
const MARKDOWN_WIDTH_COLUMNS = 120;

const INTRODUCTION = `# pmiyc's commands

<!-- Written by \`${WRITE_COMMANDS_MANUAL}\` from the program's declarations (src/cli/program/): edit those, not this
file. test/commands-manual.test.ts fails when the two differ. -->

Every command's help, exactly as \`pmiyc <command> --help\` prints it, in the order \`pmiyc --help\` lists them.
This file is written from the program's own declarations, so it cannot say anything the program does not. What the
commands do in more depth is in [\`guide.md\`](guide.md); the config file, models, claim sets and environment
variables are in [\`configuration.md\`](configuration.md).`;

/** What the commands' help writes: every command of the program is set to write here (`captureHelp`). */
const captured = { text: '' };

/**
 * Sets every command of `program` to write its help into `captured`, without colour, at the width of a
 * pipe; all of them first, since one page may print another's options (`pmiyc judge` shows `judge run`'s).
 */
function captureHelp(command: Command): void {
  command.configureOutput({
    writeOut: (text) => {
      captured.text += text;
    },
    getOutHelpWidth: () => HELP_WIDTH_COLUMNS,
    getOutHasColors: () => false,
  });
  for (const subcommand of command.commands) captureHelp(subcommand as Command);
}

/** A help page as the command prints it, its added texts (examples, closing lines) included. */
function helpPageOf(command: Command): string {
  captured.text = '';
  command.outputHelp();
  return captured.text.trimEnd();
}

/** The full name of a command as it is typed: `pmiyc annotate export`. */
function fullName(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent as Command | null) names.unshift(current.name());
  return names.join(' ');
}

/** The anchor GitHub makes of a heading `pmiyc import official`. */
const anchorOf = (name: string) => name.replaceAll(' ', '-');

/** A command's section: a heading at `level` and its help page. */
const sectionOf = (command: Command, level: number) => `${'#'.repeat(level)} \`${fullName(command)}\`\n\n\`\`\`text\n${helpPageOf(command)}\n\`\`\``;

/** A command's section, then its subcommands' one level down. */
function sectionsOf(command: Command, level: number): string[] {
  return [sectionOf(command, level), ...command.commands.flatMap((subcommand) => sectionsOf(subcommand as Command, level + 1))];
}

/** Items joined by ", " into lines of at most `widthColumns` (the first line starts `firstLineColumns` in), the others indented. */
function wrapList(items: readonly string[], indent: string, firstLineColumns: number, widthColumns: number): string {
  const lines = [''];
  for (const item of items) {
    const line = lines.at(-1)!;
    const startColumns = lines.length === 1 ? firstLineColumns : indent.length;
    if (line === '' || startColumns + line.length + item.length + 2 <= widthColumns) lines[lines.length - 1] = line === '' ? item : `${line}, ${item}`;
    else lines.push(item);
  }
  return lines.join(`,\n${indent}`);
}

/** The list of contents: the commands under the headings `pmiyc --help` groups them by. */
function contentsOf(program: Command): string {
  const groups = new Map<string, string[]>();
  for (const command of program.commands as Command[]) {
    const heading = command.helpGroup().replace(/:$/, '');
    const name = fullName(command);
    groups.set(heading, [...(groups.get(heading) ?? []), `[\`${name}\`](#${anchorOf(name)})`]);
  }
  return [...groups].map(([heading, links]) => `- ${heading}: ${wrapList(links, '  ', heading.length + 4, MARKDOWN_WIDTH_COLUMNS)}`).join('\n');
}

/**
 * The command manual (docs/commands.md): every command's help page, written from the program that
 * `pmiyc` runs, built here with an empty environment so that no setting of this machine shows in it.
 */
export function commandsManual(): string {
  const context = { stdout: process.stdout, stderr: process.stderr, env: {}, now: () => new Date(0), packageVersion: '0.0.0' };
  const neverStopped = { stop: new AbortController().signal, abort: new AbortController().signal };
  const program = buildProgram(context, neverStopped, () => {}) as unknown as Command;
  captureHelp(program);
  const sections = [sectionOf(program, 2), ...program.commands.flatMap((command) => sectionsOf(command as Command, 2))];
  return `${[INTRODUCTION, contentsOf(program), ...sections].join('\n\n')}\n`;
}

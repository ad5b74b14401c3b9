import type { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';
import { runCli } from './cli-helpers.js';

/** `pmiyc <words> --help` as a user reads it. */
async function helpOf(...words: string[]): Promise<string> {
  const result = await runCli([...words, '--help']);
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The commands `pmiyc --help` lists, in its order (a command's line starts two spaces in, with its name). */
function listedCommands(help: string): string[] {
  const commands = help.slice(help.indexOf('Start here:'));
  return [...commands.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1]!);
}

/** Each option of a help page as one line: its flags and its whole description, however it wrapped. */
function optionEntries(help: string): string[] {
  const options = help.slice(help.indexOf('Options:'), help.search(/\n\n(Examples|Commands):|$/));
  return options
    .split(/\n(?= {2}-)/)
    .slice(1)
    .map((entry) => entry.replace(/\s+/g, ' ').trim());
}

/** Every command and subcommand of the program, with its help page (built in this process: commander writes the same text). */
function everyHelpPage(): Array<{ name: string; help: string }> {
  const context = { stdout: process.stdout, stderr: process.stderr, env: {}, now: () => new Date(), packageVersion: '0.0.0-test' };
  const program = buildProgram(context, { stop: new AbortController().signal, abort: new AbortController().signal }, () => {});
  const walk = (command: Command, path: string[]): Array<{ name: string; help: string }> => [
    { name: ['pmiyc', ...path].join(' '), help: command.helpInformation() },
    ...command.commands.flatMap((sub) => walk(sub as Command, [...path, sub.name()])),
  ];
  return walk(program as unknown as Command, []);
}

describe('pmiyc --help guides a newcomer', () => {
  it('lists the commands in the order of the work, under headings, and ends with where to start', async () => {
    const help = await helpOf();
    const commands = listedCommands(help);
    expect(commands.slice(0, 5)).toEqual(['demo', 'init', 'run', 'report', 'view']);
    expect(commands).toEqual(expect.arrayContaining(['analyze', 'people', 'judge', 'consistency', 'annotate', 'import', 'upgrade', 'models']));
    expect(help).toMatch(/^Start here:\n {2}demo /m);
    expect(help).toMatch(/^Run a tournament and read it:\n {2}run /m);
    // The closing lines: the first command to type, then the ones after it, and where the documents are.
    const closing = help.slice(help.lastIndexOf('\n\n') + 2).replace(/\s+/g, ' ');
    expect(closing).toContain('New here? pmiyc demo runs an offline tournament of simulated agents');
    expect(closing).toContain('pmiyc init, pmiyc run, pmiyc report, pmiyc view');
    expect(closing).toContain('docs/README.md');
  });

  it.each([
    [['run'], 'pmiyc run'],
    [['report'], 'pmiyc report'],
    [['analyze'], 'pmiyc analyze'],
    [['people', 'serve'], 'pmiyc people serve'],
  ])('pmiyc %s --help ends with two or three examples, each with what it does', async (words, command) => {
    const help = await helpOf(...words);
    const examples = help.slice(help.indexOf('\nExamples:\n'));
    expect(examples).not.toBe(help);
    const lines = examples.trim().split('\n').slice(1);
    const commandLines = lines.filter((line) => line.startsWith('  pmiyc '));
    expect(commandLines.length).toBeGreaterThanOrEqual(2);
    expect(commandLines.length).toBeLessThanOrEqual(4);
    expect(commandLines.some((line) => line.startsWith(`  ${command}`))).toBe(true);
    // Every example is said in words on the line above it.
    for (const [index, line] of lines.entries()) if (line.startsWith('  pmiyc ')) expect(lines[index - 1]).toMatch(/^ {2}# \S/);
  });

  it.each([
    [['people', 'serve'], '--role <persuadee|persuader>'],
    [['run'], '--setting <single|multi|both>'],
    [['run'], '--until <settled>'],
    [['report'], '--intervals <t|percentile|bca|bootstrap-t>'],
    [['export'], '--format <jsonl|csv|turns-csv>'],
    [['claims'], '--format <jsonl|table>'],
    [['annotate', 'export'], '--setting <single|multi|both>'],
    [['import', 'official'], '--setting <single|multi>'],
    [['import', 'official'], '--domain <subjective|misinformation>'],
    [['import', 'official'], '--label-match <strict|first>'],
    [['analyze'], '--taxonomy <rhetoric|techniques|persusafety|file>'],
  ])('pmiyc %s --help lists the values of %s', async (words, flags) => {
    expect(await helpOf(...words)).toContain(`  ${flags} `);
  });

  it('states no default twice on any help page', () => {
    const pages = everyHelpPage();
    expect(pages.length).toBeGreaterThan(20);
    const doubled = pages.flatMap(({ name, help }) =>
      optionEntries(help)
        .filter((entry) => (entry.match(/\bdefault\b/gi) ?? []).length > 1)
        .map((entry) => `${name}: ${entry}`),
    );
    expect(doubled).toEqual([]);
  });

  it('pmiyc init --help names every file it writes', async () => {
    expect((await helpOf('init')).replace(/\s+/g, ' ')).toMatch(/pmiyc\.yaml .*\.env\.example .*people-experiment\.yaml/);
  });
});

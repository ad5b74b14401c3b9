import { type Command, Option } from '@commander-js/extra-typings';
import { INTERVAL_METHODS, type IntervalMethod } from '../../metrics/intervals/claim-estimates.js';
import { REPORT_FORMATS } from '../../report/report-formats.js';
import { parseComparedRuns, parseReportFormats, parseRunNames, parseWholeNumber } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, examplesHelp } from './command-wiring.js';

const REPORT_EXAMPLES = examplesHelp([
  { does: 'the latest run, every format, into ./pmiyc-report/<run>/ (open index.html)', command: 'pmiyc report' },
  { does: 'one run as Markdown and CSV, into a folder of your choice', command: 'pmiyc report --run pilot --format md,csv --out results/pilot' },
  { does: "run paper with each model's change from run pilot, on the cells both hold", command: 'pmiyc report --compare pilot,paper' },
]);

/** `pmiyc report`: its options and help; its action loads commands/report.ts (nothing of it is loaded before). */
export function addReportCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('report')
    .description('write the report of a run, or of runs combined: HTML, Markdown with SVG charts, JSON and CSV')
    .addOption(shared.store('SQLite store to read'))
    .option(
      '--run <names>',
      'run name, or runs to combine as a,b (default: the latest tournament, or the latest protocol run in a store without one)',
      parseRunNames,
    )
    .option('--out <dir>', 'output folder (default: ./pmiyc-report/<run>/)')
    .addOption(
      new Option('--format <list>', `comma-separated: ${REPORT_FORMATS.join(', ')}`)
        .argParser(parseReportFormats)
        .default([...REPORT_FORMATS], REPORT_FORMATS.join(',')),
    )
    .option('--analysis <name>', "the analysis study (pmiyc analyze) whose judges' labels the report shows (default: the run's latest)")
    .option('--compare <a,b>', 'report run b with the change of every model from run a, over the (opponent, claim) cells both runs hold', parseComparedRuns)
    .addOption(
      shared
        .choice('--intervals', INTERVAL_METHODS, 'how the 95% intervals are made (t is calibrated best: docs/design/statistics.md)')
        .default('t' as IntervalMethod),
    )
    .option('--replicates <n>', 'bootstrap replicates, for the bootstrap interval methods', parseWholeNumber('--replicates', 100), 2000)
    .addHelpText('after', REPORT_EXAMPLES)
    .action(async (options) => {
      const { reportCommand } = await import('../commands/report.js');
      setExitCode(await reportCommand(options, context));
    });
}

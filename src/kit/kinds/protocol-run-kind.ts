import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InputError } from '../../domain/errors/input-error.js';
import { labelModel } from '../../domain/text-labels.js';
import { type ClosingText, describeCallsMade, sessionCallsView } from '../../report/texts/run-totals-text.js';
import { describeLeftForResume, describeStop } from '../../runner/session-ending.js';
import type { Store } from '../../store/result-store.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import type { ProtocolStudyOutcome } from '../../studies/protocol-study.js';
import type { RunConfig, StudyRun } from '../../studies/run-config.js';
import { type ResumeWording, studyToResume } from '../../studies/study-resume.js';
import type { StudyCommandOptions } from '../study-command.js';

/**
 * What every protocol's kind (`kit/kinds/<protocol>-kind.ts`) shares besides the kit's wiring: the stored run a
 * `--resume` continues, a required model flag, a file read with its sha256, and the closing text (the session's
 * totals, a stop's warning, then the protocol's figures of the whole run, its simulated agents labelled so).
 */

/** How a protocol's kind names itself in messages. */
export interface ProtocolRunWords {
  /** The protocol's name, as the stored config keeps it (`ape`). */
  readonly protocol: string;
  /** `pmiyc run --protocol ape`. */
  readonly command: string;
  /** What its resume says (`studies/study-resume.ts`); `wording.study` is the run in messages (`APE run`). */
  readonly wording: ResumeWording;
  /** The run with its article, for a refusal (`an APE run`). */
  readonly aRun: string;
}

/**
 * The stored run `--resume` continues (the one named, else `latest`), refused when it is not a run of the protocol.
 * Its flags typed again are the kind's to check.
 */
export function protocolRunToResume(
  store: Store,
  words: ProtocolRunWords,
  choice: { readonly named?: string | undefined; readonly latest: () => string | undefined },
): StudyRun & { readonly config: Extract<RunConfig, { kind: 'protocol' }> } {
  const run = studyToResume(store, words.wording, choice);
  const { config } = run;
  if (config.kind !== 'protocol' || config.protocol !== words.protocol) throw new InputError(`run ${run.name} is not ${words.aRun}: ${words.wording.startNew}`);
  return { ...run, config };
}

/** A required model flag's value, or what to type. */
export function requiredModel(command: string, value: string | undefined, flag: string, what: string): string {
  if (value === undefined) throw new InputError(`${command} needs ${flag} MODEL: ${what}`);
  return value;
}

/** A user's file read with its sha256; one that cannot be read is named (`named`) with what to do. */
export async function readWithSha256(path: string, named: string, remedy: string): Promise<{ readonly content: string; readonly sha256: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new InputError(`cannot read ${named} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}): ${remedy}`);
  }
  return { content: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A model's name as the closing shows it: the run's simulated agents (its stored `simulated`, aliases included) labelled so. */
function simulatedLabels(simulated: readonly string[]): (model: string) => string {
  return (model) => {
    const label = labelModel(model);
    return simulated.includes(model) && !label.includes('[simulated]') ? `${label} [simulated]` : label;
  };
}

/**
 * The closing figures of a stored run: `figures` given its records (each the protocol reads by its own schema), how
 * to label a model and the run; a run with no record yet says so.
 */
export function storedRunFigures(
  store: Store,
  runName: string,
  figures: (records: readonly StoredProtocolRecord[], labelOf: (model: string) => string, run: StudyRun) => string[],
): string[] {
  const run = store.findRun(runName);
  const labelOf = simulatedLabels(run.config.kind === 'protocol' ? run.config.simulated : []);
  const records = [...store.protocolRecords.list(run.id)];
  if (records.length === 0) return [`Run ${run.name} has no finished conversation yet.`];
  return figures(records, labelOf, run);
}

/**
 * A protocol kind's `closing`: the session's totals; when it stopped, why and how to resume (with what is left for
 * the resume: conversations in progress, requests pending in provider batches); else the run's figures (`runText`),
 * and the conversations that failed.
 */
export function protocolClosing<Options extends StudyCommandOptions, Prepared>(
  words: Pick<ProtocolRunWords, 'command' | 'wording'>,
  runText: (store: Store, runName: string, prepared: Prepared) => string[],
): (
  session: { readonly store: Store; readonly options: Options; readonly prepared: Prepared },
  outcome: ProtocolStudyOutcome,
) => {
  readonly closing: ClosingText;
  readonly more?: string;
} {
  return ({ store, options, prepared }, outcome) => {
    const { run, result, ending } = outcome;
    const calls = store.callTotals(run.id, outcome.callsMark);
    const lines = [
      `${words.wording.study} ${run.name} in ${options.store}: ${result.done} conversations this session, ${result.skipped} already stored; ${describeCallsMade(sessionCallsView(outcome, calls))}.`,
      '',
    ];
    const resume = `${words.command} --store ${options.store} --run ${run.name} --resume`;
    if (ending.status !== 'completed') {
      const warning = describeStop(ending, {
        resume,
        items: 'conversations',
        blockedModels: outcome.blockedModels,
        budgetRefusal: outcome.budgetRefusal,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
      });
      const leftOver = describeLeftForResume(result.abandoned, { one: 'conversation', many: 'conversations' }, outcome.meter.pendingBatches());
      return { closing: { lines, warning: `${warning}${leftOver}` } };
    }
    const more = `${runText(store, run.name, prepared).join('\n')}\n`;
    if (result.failed > 0)
      return { closing: { lines, warning: `${result.failed} conversations could not be completed; the rest is stored. Ask them again with: ${resume}` }, more };
    return { closing: { lines }, more };
  };
}

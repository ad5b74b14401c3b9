import type { FailureReason } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { printableText } from '../../domain/printable-text.js';
import { formatCount as count, labelModel } from '../../domain/text-labels.js';
import type { RoleCoverage } from '../../metrics/role-coverage.js';

type Cause = FailureReason | 'unknown';

/** The failed conversations one model failed (its turn could not be generated), by cause, and the first detail of each cause. */
export interface ModelFailures {
  readonly model: string;
  readonly failedBy: Readonly<Partial<Record<Cause, number>>>;
  readonly details: Readonly<Partial<Record<Cause, string>>>;
  /** A failed conversation of the model's, to show it again with `pmiyc converse`. */
  readonly example: Pick<ConversationRecord, 'claim' | 'question'>;
  /** Whether any conversation of the model, in either role, was scored. */
  readonly everScored: boolean;
}

/** A failed conversation as the closing lines read it. */
export type FailedConversation = Pick<ConversationRecord, 'persuader' | 'persuadee' | 'failedRole' | 'failureReason' | 'failureDetail' | 'claim' | 'question'>;

/** Where the run is, for the commands the lines suggest. */
export interface FailureCommands {
  readonly storePath: string;
  readonly runName: string;
  /** The config file the run was started with, when it recorded one. */
  readonly configPath?: string;
}

/** Details are provider messages: one line, no escapes, not too long to read. */
const DETAIL_CHARACTERS = 160;

/**
 * The models at whose turn conversations failed, with their causes, from a run's failed
 * conversations (one pass) and its coverage (whether each model was ever scored). A conversation
 * that names no failing role is the persuadee's opening's or unknown: counted for neither model.
 */
export function tallyModelFailures(failed: Iterable<FailedConversation>, coverage: readonly RoleCoverage[]): ModelFailures[] {
  const tallies = new Map<
    string,
    { model: string; failedBy: Partial<Record<Cause, number>>; details: Partial<Record<Cause, string>>; example: FailedConversation }
  >();
  for (const record of failed) {
    if (record.failedRole === null) continue;
    const model = record.failedRole === 'persuader' ? record.persuader : record.persuadee;
    const tally = tallies.get(model) ?? { model, failedBy: {}, details: {}, example: record };
    tallies.set(model, tally);
    const cause: Cause = record.failureReason ?? 'unknown';
    tally.failedBy[cause] = (tally.failedBy[cause] ?? 0) + 1;
    if (tally.details[cause] === undefined && record.failureDetail) tally.details[cause] = record.failureDetail;
  }
  const scored = new Set(coverage.filter((entry) => entry.scored > 0).map((entry) => entry.model));
  return [...tallies.values()]
    .map(({ model, failedBy, details, example }) => ({
      model,
      failedBy,
      details,
      example: { claim: example.claim, question: example.question },
      everScored: scored.has(model),
    }))
    .sort((a, b) => total(b) - total(a) || a.model.localeCompare(b.model));
}

const total = (failures: ModelFailures) => Object.values(failures.failedBy).reduce((sum, amount) => sum + (amount ?? 0), 0);

/** A shell word: single-quoted unless it is plain. */
function shellWord(text: string): string {
  return /^[\w./:@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What each cause means, where no detail was recorded. */
const CAUSE_TEXT: Readonly<Record<Cause, string>> = {
  format: 'replies without the reply format',
  refusal: 'refusals',
  api: 'calls that failed',
  context: 'context window exceeded',
  unknown: 'no reason recorded',
};

/** The first recorded detail of a cause, on one line and not too long; else what the cause means. */
function detailOf(failures: ModelFailures, cause: Cause): string {
  const detail = failures.details[cause];
  if (detail === undefined) return CAUSE_TEXT[cause];
  const line = printableText(detail).replace(/\s+/g, ' ').trim();
  return line.length > DETAIL_CHARACTERS ? `${line.slice(0, DETAIL_CHARACTERS - 1)}…` : line;
}

/** `pmiyc converse` with the model in both roles, on a claim its conversations failed on: one single-turn conversation whose record shows each failed attempt's raw reply. */
function converseCommand(failures: ModelFailures, commands: FailureCommands): string {
  const config = commands.configPath ? ` --config ${shellWord(commands.configPath)}` : '';
  const question = failures.example.question === null ? '' : ` --question ${shellWord(failures.example.question)}`;
  const model = shellWord(failures.model);
  return `pmiyc converse${config} --persuader ${model} --persuadee ${model} --claim ${shellWord(failures.example.claim)}${question} --turns 3 --json`;
}

/**
 * What can help with one cause of a model's failures, or nothing when the rest of the line says
 * it: asking again helps a call that failed on the way (api) or a reply that was unusable now and
 * then; a model that never wrote a usable reply needs another prompt or another model.
 */
function remedyOf(failures: ModelFailures, cause: Cause, commands: FailureCommands): string {
  const retry = `pmiyc run --store ${shellWord(commands.storePath)} --run ${shellWord(commands.runName)} --retry-failed`;
  switch (cause) {
    case 'api':
      return `check that it answers with pmiyc models --check --models ${shellWord(failures.model)}${commands.configPath ? ` --config ${shellWord(commands.configPath)}` : ''}, then ask them again: ${retry}`;
    case 'context':
      return 'the conversation outgrew its context window: fewer --turns, a lower --max-tokens or a model with a longer context (asking again repeats it)';
    case 'format':
    case 'refusal':
      if (failures.everScored) return `its other conversations were scored, so asking again may work: ${retry}`;
      return `it never wrote a usable reply, so asking again would not help: see what it writes (failedAttempts[].raw) with ${converseCommand(failures, commands)}; then try a prompt variant (docs/design/variants.md) or another model`;
    case 'unknown':
      return 'the records do not say why: see them with pmiyc view';
  }
}

/**
 * One line per failing model and cause, most failures first: "chatty: 9 conversations failed at its
 * turn (format: no usable reply in 3 attempts: ...); it never wrote a usable reply, so asking again
 * would not help: see what it writes with pmiyc converse ...".
 */
export function failingModelsLines(models: readonly ModelFailures[], commands: FailureCommands): string[] {
  return models.flatMap((failures) =>
    (Object.entries(failures.failedBy) as [Cause, number][])
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(
        ([cause, amount]) =>
          `${labelModel(failures.model)}: ${count(amount)} ${amount === 1 ? 'conversation' : 'conversations'} failed at its turn (${cause}: ${detailOf(failures, cause)}); ${remedyOf(failures, cause, commands)}`,
      ),
  );
}

import { agreementLabel } from '../../domain/agreement-score.js';
import type { ReadingDifference } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/input-error.js';
import { usageTotals } from '../../metrics/usage-totals.js';
import { formatConversationHeader, formatOutcomeText, formatTurnText, sanitizeForTerminal } from '../../report/dialogue-text.js';
import { formatUsageText } from '../../report/usage-text.js';
import { openStore } from '../../store/result-store.js';
import { type CliContext, labelModel, styleFor } from '../terminal.js';

/** Under an imported turn that pmiyc's parser reads differently: what it reads, next to the recorded score the numbers use. */
function differenceText(difference: ReadingDifference, labelMatch: string): string {
  const reading =
    difference.readScore === null
      ? `rejects it (${sanitizeForTerminal(difference.detail ?? '')})`
      : `reads ${agreementLabel(difference.readScore)} (${difference.readScore})`;
  return `     the score is as the file recorded it; pmiyc's parser (--label-match ${labelMatch}) ${reading}`;
}

export interface ShowOptions {
  readonly store: string;
  /** The run to take the conversation from when several runs have the id (default: the latest). */
  readonly run?: string;
  readonly json: boolean;
  readonly color: boolean;
}

/**
 * `pmiyc show <conversation-id>`: one stored conversation in the terminal, as `pmiyc converse`
 * prints it (turn by turn, then how it ended and what it cost), or with --json its export record.
 * Opens the store read-only.
 */
export function showCommand(conversationId: string, options: ShowOptions, context: CliContext): number {
  const store = openStore(options.store, { access: 'read' });
  try {
    const found = store.conversationsWithId(conversationId);
    if (found.length === 0) {
      throw new InputError(
        `${store.path} has no conversation ${conversationId}: browse the runs with pmiyc view --store ${store.path}, or list a run's ids with pmiyc export --run NAME --format csv`,
      );
    }
    const chosen = options.run === undefined ? found[0] : found.find((entry) => entry.run === options.run);
    if (!chosen) {
      throw new InputError(`conversation ${conversationId} is not in run ${options.run}; it is in ${found.map((entry) => entry.run).join(', ')}`);
    }
    if (options.run === undefined && found.length > 1) {
      const others = found.slice(1).map((entry) => entry.run);
      context.stderr.write(`pmiyc: showing run ${chosen.run}; the same conversation id is also in ${others.join(', ')} (choose with --run)\n`);
    }
    const { record } = chosen;
    if (options.json) {
      context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
      return 0;
    }
    const style = styleFor(context.stdout, context.env, options.color);
    context.stdout.write(`${style.dim(`${record.conversationId} · run ${chosen.run} · ${record.domain} · ${record.setting}-turn`)}\n`);
    context.stdout.write(`${formatConversationHeader(record, labelModel, style)}\n`);
    const imported = record.imported;
    if (imported)
      context.stdout.write(`${style.dim(`Imported from ${imported.file} (record ${imported.recordIndex}, sha256 ${imported.sha256.slice(0, 12)})`)}\n`);
    for (const turn of record.turns) {
      const difference = imported?.differences.find((entry) => entry.turn === turn.index);
      const note = difference ? `${style.dim(differenceText(difference, imported!.labelMatch))}\n` : '';
      context.stdout.write(`${formatTurnText(turn, style)}${note}\n`);
    }
    for (const attempt of record.failedAttempts) {
      context.stdout.write(`${style.bad(`  attempt ${attempt.number}: ${attempt.outcome}${attempt.detail ? ` (${attempt.detail})` : ''}`)}\n`);
    }
    context.stdout.write(`${formatOutcomeText(record, style)}\n\n`);
    context.stdout.write(`${formatUsageText(usageTotals([record]), labelModel)}\n`);
    return 0;
  } finally {
    store.close();
  }
}

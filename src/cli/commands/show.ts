import type { ConversationRecord, DisputedScore, ImportedFrom, ReadingDifference } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import { usageTotals } from '../../metrics/usage-totals.js';
import { formatConversationHeader, formatOutcomeText, formatTurnText, sanitizeForTerminal, type TextStyle } from '../../report/dialogue-text.js';
import { disputeText } from '../../report/dispute-text.js';
import { formatNumber } from '../../report/number-format.js';
import { formatUsageText } from '../../report/usage-text.js';
import { openStore } from '../../store/result-store.js';
import { type CliContext, labelModel, styleFor } from '../terminal.js';

/** Under a disputed turn: what the official code read (the recorded score, which the numbers use) and what pmiyc's parser reads. */
function differenceText(difference: ReadingDifference, labelMatch: string, style: TextStyle): string {
  return `     ${style.bad('disputed:')} ${style.dim(sanitizeForTerminal(disputeText(difference, labelMatch)))}`;
}

/** "the initial score rests on such a turn", "the initial and final scores rest on such turns". */
function restsText(scores: readonly DisputedScore[]): string {
  return scores.length === 1 ? `the ${scores[0]} score rests on such a turn` : `the ${scores.join(' and ')} scores rest on such turns`;
}

/** Where an imported conversation comes from, how its replies read, and whether its NC rests on a disputed turn. */
function importedSourceText(record: Pick<ConversationRecord, 'turns' | 'normalizedChange'>, imported: ImportedFrom, style: TextStyle): string {
  const claimNumber = imported.claimNumber === null ? '' : `, claim number ${imported.claimNumber}`;
  const lines = [`Imported from ${sanitizeForTerminal(imported.file)}, record ${imported.recordIndex} (from 0${claimNumber})`, `  sha256 ${imported.sha256}`];
  const parser = `pmiyc's parser (--label-match ${imported.labelMatch})`;
  const disputed = imported.differences.length;
  if (disputed === 0) lines.push(`${parser} reads all ${record.turns.length} replies as the file recorded them.`);
  else {
    const rests =
      imported.disputedScores.length === 0
        ? 'neither the initial nor the final score rests on them.'
        : `${restsText(imported.disputedScores)}, so this conversation's NC (${formatNumber(record.normalizedChange)}) is left out of the report's figures without disputed conversations.`;
    lines.push(
      style.bad(
        `Disputed turns: ${parser} reads ${disputed} of its ${record.turns.length} replies differently from the scores the file recorded (marked below); ${rests}`,
      ),
    );
  }
  return `${style.dim(lines.slice(0, 2).join('\n'))}\n${lines.slice(2).join('\n')}\n`;
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
    if (imported) context.stdout.write(`${importedSourceText(record, imported, style)}\n`);
    for (const turn of record.turns) {
      const difference = imported?.differences.find((entry) => entry.turn === turn.index);
      const note = difference ? `${differenceText(difference, imported!.labelMatch, style)}\n` : '';
      context.stdout.write(`${formatTurnText(turn, style)}${note}\n`);
    }
    for (const attempt of record.failedAttempts) {
      context.stdout.write(`${style.bad(`  attempt ${attempt.number}: ${attempt.outcome}${attempt.detail ? ` (${attempt.detail})` : ''}`)}\n`);
    }
    context.stdout.write(`${formatOutcomeText(record, style)}\n\n`);
    const usage = imported
      ? style.dim('No calls: the conversation was imported, and its file keeps no seeds, tokens or costs.')
      : formatUsageText(usageTotals([record]), labelModel);
    context.stdout.write(`${usage}\n`);
    return 0;
  } finally {
    store.close();
  }
}

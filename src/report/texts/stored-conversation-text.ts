import type { ConversationRecord, DisputedScore, ImportedFrom, ReadingDifference } from '../../domain/conversation-record.js';
import { printableText, shownText } from '../../domain/printable-text.js';
import { usageTotals } from '../../metrics/usage/usage-totals.js';
import { formatNumber } from '../number-format.js';
import { formatConversationHeader, formatOutcomeText, formatTurnText, type TextStyle } from './dialogue-text.js';
import { disputeText } from './dispute-text.js';
import { type ConversationLabels, labelsHeaderText, turnTagsText } from './turn-tags-text.js';
import { formatUsageText } from './usage-text.js';

/** Under a disputed turn: what the official code read (the recorded score, which the numbers use) and what pmiyc's parser reads. */
function differenceText(difference: ReadingDifference, labelMatch: string, style: TextStyle): string {
  return `     ${style.bad('disputed:')} ${style.dim(shownText(disputeText(difference, labelMatch)))}`;
}

/** "the initial score rests on such a turn", "the initial and final scores rest on such turns". */
function restsText(scores: readonly DisputedScore[]): string {
  return scores.length === 1 ? `the ${scores[0]} score rests on such a turn` : `the ${scores.join(' and ')} scores rest on such turns`;
}

/** Where an imported conversation comes from, how its replies read, and whether its NC rests on a disputed turn. */
function importedSourceText(record: Pick<ConversationRecord, 'turns' | 'normalizedChange'>, imported: ImportedFrom, style: TextStyle): string {
  const claimNumber = imported.claimNumber === null ? '' : `, claim number ${imported.claimNumber}`;
  const lines = [`Imported from ${printableText(imported.file)}, record ${imported.recordIndex} (from 0${claimNumber})`, `  sha256 ${imported.sha256}`];
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

/**
 * `pmiyc show`: one stored conversation of run `run`, as `pmiyc converse` prints it (turn by turn,
 * then how it ended and what it cost); an imported one with where it comes from and its disputed turns;
 * with an analysis study's labels, each turn's tags under it.
 */
export function storedConversationText(
  record: ConversationRecord,
  run: string,
  labelOf: (model: string) => string,
  style: TextStyle,
  labels?: ConversationLabels,
): string {
  const { imported } = record;
  const turns = record.turns.map((turn) => {
    const difference = imported?.differences.find((entry) => entry.turn === turn.index);
    const note = difference ? `${differenceText(difference, imported!.labelMatch, style)}\n` : '';
    const tags =
      labels && labels.turns.length > 0
        ? turnTagsText(
            labels.turns.find((entry) => entry.turn === turn.index),
            labels,
            labelOf,
            style,
          )
        : '';
    return `${formatTurnText(turn, style)}${tags}${note}\n`;
  });
  const attempts = record.failedAttempts.map(
    (attempt) => `${style.bad(`  attempt ${attempt.number}: ${attempt.outcome}${attempt.detail ? ` (${shownText(attempt.detail)})` : ''}`)}\n`,
  );
  const usage = imported
    ? style.dim('No calls: the conversation was imported, and its file keeps no seeds, tokens or costs.')
    : formatUsageText(usageTotals([record]), labelOf);
  return [
    `${style.dim(`${record.conversationId} · run ${run} · ${record.domain} · ${record.setting}-turn`)}\n`,
    `${formatConversationHeader(record, labelOf, style)}\n`,
    imported ? `${importedSourceText(record, imported, style)}\n` : '',
    labels ? `${labelsHeaderText(labels, labelOf, style)}\n\n` : '',
    ...turns,
    ...attempts,
    `${formatOutcomeText(record, style)}\n\n`,
    `${usage}\n`,
  ].join('');
}

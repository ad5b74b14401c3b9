import { agreementLabel } from '../../domain/agreement-score.js';
import type { ReadingDifference } from '../../domain/conversation-record.js';

/**
 * What a disputed imported turn is, in plain text: what the official code read (the recorded score,
 * which every number uses) and what pmiyc's parser reads. `show`, the report's dialogues and their
 * tests say it in these words; the caller escapes or cleans it for where it goes.
 */
export function disputeText(difference: ReadingDifference, labelMatch: string): string {
  const reading =
    difference.readScore === null
      ? `rejects it (${difference.detail ?? 'no usable ranking'})`
      : `reads ${agreementLabel(difference.readScore)} (${difference.readScore})`;
  const recorded = `${agreementLabel(difference.recordedScore)} (${difference.recordedScore})`;
  return `the official code read ${recorded}, the score kept and used; pmiyc's parser (--label-match ${labelMatch}) ${reading}`;
}

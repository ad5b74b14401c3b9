import { formatCount as count } from '../../domain/text-labels.js';
import type { ReportDuplicates } from '../report-document.js';

/**
 * The one sentence every format uses to say that combined runs shared conversations, which were
 * counted once (no final period, plain text: each format escapes it). For one pair of runs:
 * "144 conversations of run b are also in run a and were counted once, from run a". For more, the
 * total and then each pair. An empty list gives an empty string.
 */
export function duplicatesSentence(duplicates: readonly ReportDuplicates[]): string {
  if (duplicates.length === 0) return '';
  if (duplicates.length === 1) {
    const { run, alsoIn, conversations } = duplicates[0]!;
    const one = conversations === 1;
    return `${count(conversations)} ${one ? 'conversation' : 'conversations'} of run ${run} ${one ? 'is' : 'are'} also in run ${alsoIn} and ${one ? 'was' : 'were'} counted once, from run ${alsoIn}`;
  }
  const total = duplicates.reduce((sum, entry) => sum + entry.conversations, 0);
  const pairs = duplicates.map((entry) => `${count(entry.conversations)} of run ${entry.run} also in run ${entry.alsoIn}`);
  return `${count(total)} conversations are in more than one of the combined runs and were counted once, from the run listed first: ${pairs.join(', ')}`;
}

import type { ConversationRecord } from '../domain/conversation-record.js';
import { formatCount as count } from '../domain/text-labels.js';

interface RunImports {
  conversations: number;
  replies: number;
  readDifferently: number;
  readings: Set<string>;
}

/**
 * Counts, per run, the conversations imported from the official code's results and their replies
 * that pmiyc's parser reads differently from the recorded score, as the report streams the records:
 * each becomes a note, so that nobody reads the numbers without knowing where their scores come from.
 */
export class ImportedTally {
  private readonly byRun = new Map<string, RunImports>();

  add(run: string, record: Pick<ConversationRecord, 'imported' | 'turns'>): void {
    if (!record.imported) return;
    let tally = this.byRun.get(run);
    if (!tally) {
      tally = { conversations: 0, replies: 0, readDifferently: 0, readings: new Set() };
      this.byRun.set(run, tally);
    }
    tally.conversations += 1;
    tally.replies += record.turns.length;
    tally.readDifferently += record.imported.differences.length;
    tally.readings.add(record.imported.labelMatch);
  }

  notes(): string[] {
    return [...this.byRun].map(([run, tally]) => {
      const reading = `pmiyc's parser (--label-match ${[...tally.readings].join(' and ')})`;
      const replies =
        tally.readDifferently === 0
          ? `${reading} reads all ${count(tally.replies)} of their replies as the files recorded them`
          : `${reading} reads ${count(tally.readDifferently)} of their ${count(tally.replies)} replies differently from the scores the files recorded, which are the scores used here (each conversation lists them in imported.differences)`;
      return `run ${run}: ${count(tally.conversations)} conversations imported from the official PMIYC code's results (pmiyc import official); ${replies}`;
    });
  }
}

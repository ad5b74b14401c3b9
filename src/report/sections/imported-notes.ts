import type { ConversationRecord } from '../../domain/conversation-record.js';
import { formatCount as count, formatCounted } from '../../domain/text-labels.js';
import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { DISPUTED_LISTED, type DisputedConversation, type ImportedResults, WithoutDisputedTally } from './imported-figures.js';

/** Files named in a note; report.json `imported.runs[].files` has them all. */
const FILES_NAMED = 3;

interface RunImports {
  conversations: number;
  replies: number;
  disputedTurns: number;
  disputedConversations: number;
  readings: Set<string>;
  /** Conversations per file, keyed by path and sha256. */
  files: Map<string, { path: string; sha256: string; conversations: number }>;
}

/** A run's seed as the report shows it: an imported run has none (its seed is null in report.json). */
export function runSeedText(run: { readonly seed: number | null }): string {
  return run.seed === null ? 'none (imported)' : String(run.seed);
}

/**
 * Tallies, per run, the conversations imported from the official code's results as the report
 * streams the records: their files, the turns pmiyc's parser reads differently from the recorded
 * score (disputed turns), and the conversations whose initial or final score rests on one. With
 * `withFigures` (the report holds an imported run) it also computes the headline figures without
 * those conversations. Each run becomes a note, so that nobody reads the numbers without knowing
 * where their scores come from.
 */
export class ImportedTally {
  private readonly byRun = new Map<string, RunImports>();
  private readonly disputed: DisputedConversation[] = [];
  private readonly without: WithoutDisputedTally | undefined;

  constructor(withFigures: boolean) {
    this.without = withFigures ? new WithoutDisputedTally() : undefined;
  }

  add(run: string, record: ConversationRecord): void {
    this.without?.add(record);
    const { imported } = record;
    if (!imported) return;
    let tally = this.byRun.get(run);
    if (!tally) {
      tally = { conversations: 0, replies: 0, disputedTurns: 0, disputedConversations: 0, readings: new Set(), files: new Map() };
      this.byRun.set(run, tally);
    }
    tally.conversations += 1;
    tally.replies += record.turns.length;
    tally.disputedTurns += imported.differences.length;
    tally.readings.add(imported.labelMatch);
    const fileKey = `${imported.sha256} ${imported.file}`;
    const file = tally.files.get(fileKey) ?? { path: imported.file, sha256: imported.sha256, conversations: 0 };
    tally.files.set(fileKey, file);
    file.conversations += 1;
    if (imported.disputedScores.length === 0) return;
    tally.disputedConversations += 1;
    if (this.disputed.length < DISPUTED_LISTED) {
      const { conversationId, normalizedChange } = record;
      this.disputed.push({
        run,
        conversationId,
        file: imported.file,
        recordIndex: imported.recordIndex,
        disputedScores: imported.disputedScores,
        normalizedChange,
      });
    }
  }

  notes(): string[] {
    return [...this.byRun].map(([run, tally]) => `run ${run}: ${importedText(tally)}; ${readingText(tally)}`);
  }

  /** report.json `imported`, or undefined when no reported conversation was imported. */
  result(intervals: IntervalOptions): ImportedResults | undefined {
    if (this.byRun.size === 0 || !this.without) return undefined;
    const runs = [...this.byRun].map(([run, { readings, files, ...counts }]) => ({
      run,
      ...counts,
      labelMatch: [...readings],
      files: [...files.values()],
    }));
    return {
      runs,
      disputedConversations: runs.reduce((total, run) => total + run.disputedConversations, 0),
      disputed: this.disputed,
      withoutDisputed: this.without.result(intervals),
    };
  }
}

function importedText(tally: RunImports): string {
  const files = [...tally.files.values()];
  const named = files
    .slice(0, FILES_NAMED)
    .map((file) => `${file.path} (sha256 ${file.sha256})`)
    .join(', ');
  const more = files.length > FILES_NAMED ? ` and ${count(files.length - FILES_NAMED)} more (report.json imported.runs)` : '';
  return (
    `${formatCounted(tally.conversations, 'conversation')} imported from the official PMIYC code's results (pmiyc import official) from ` +
    `${count(files.length)} file${files.length === 1 ? '' : 's'}: ${named}${more}; they have no seed, and each one's file, sha256 and record index are in its record (pmiyc show ID, pmiyc view)`
  );
}

function readingText(tally: RunImports): string {
  const reading = `pmiyc's parser (--label-match ${[...tally.readings].join(' and ')})`;
  if (tally.disputedTurns === 0) return `${reading} reads all ${count(tally.replies)} of their replies as the files recorded them`;
  const conversations =
    tally.disputedConversations === 0
      ? 'no initial or final score rests on one'
      : `${count(tally.disputedConversations)} conversation${tally.disputedConversations === 1 ? ' has its' : 's have their'} initial or final score resting on one ("Imported results" gives the figures without ${tally.disputedConversations === 1 ? 'it' : 'them'}: report.json imported.withoutDisputed)`;
  return `${reading} reads ${count(tally.disputedTurns)} of their ${count(tally.replies)} replies differently from the scores the files recorded, which are the scores used here (disputed turns, each listed in its conversation's imported.differences); ${conversations}`;
}

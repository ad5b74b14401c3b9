import type { AgreementScore } from '../../src/domain/agreement-score.js';
import type { ConversationRecord } from '../../src/domain/conversation-record.js';
import { analyzeTournament } from '../../src/metrics/tournament-analysis.js';
import { buildReportDocument } from '../../src/report/build-report-document.js';
import { htmlReport } from '../../src/report/html/html-report.js';
import { markdownReport } from '../../src/report/markdown/markdown-report.js';
import { createModelLabels } from '../../src/report/model-labels.js';
import type { ReportDocument, ReportRun } from '../../src/report/report-document.js';
import { readRunConfig } from '../../src/studies/run-config.js';
import { handRecord } from './hand-records.js';

const clampScore = (score: number) => Math.min(5, Math.max(1, score)) as AgreementScore;

/**
 * A small round robin of `models` with scores worked out from the claim and the pair: `subjective`
 * claims argued over five turns (multi-turn) and `misinformation` claims over three (single-turn),
 * so that the first condition has enough claims for trusted intervals and the second does not.
 */
export function roundRobinRecords(
  models: readonly string[],
  claims: { subjective: number; misinformation: number } = { subjective: 12, misinformation: 6 },
): ConversationRecord[] {
  const records: ConversationRecord[] = [];
  for (const [domain, turns] of [
    ['subjective', 5],
    ['misinformation', 3],
  ] as const) {
    for (let claim = 1; claim <= claims[domain]; claim++) {
      models.forEach((persuader, first) => {
        models.forEach((persuadee, second) => {
          const opening = clampScore(1 + ((claim * 5 + second) % 4));
          const moved = clampScore(opening + ((claim * 7 + first * 3 + second) % 4) - 1);
          records.push(
            handRecord({
              persuader,
              persuadee,
              claim: `claim ${claim}`,
              domain,
              turns,
              persuadeeScores: turns === 3 ? [opening] : [opening, opening],
              final: moved,
            }),
          );
        });
      });
    }
  }
  return records;
}

/** A report's run with a stored config, read as the store reads it (`runConfig`). */
export function reportRun(name: string, config: unknown): ReportRun {
  return { name, createdAt: 'now', seed: 0, packageVersion: 'test', config, runConfig: readRunConfig(config) };
}

/** A tournament's design as `pmiyc run` stores it, with some of its keys replaced. */
export function storedTournamentDesign(replaced: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    persuaders: ['alpha', 'beta'],
    persuadees: ['alpha', 'beta'],
    settings: ['single', 'multi'],
    multiTurns: 9,
    repetitions: 1,
    claims: { source: 'subjective' },
    sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 },
    ...replaced,
  };
}

/** The report of records as report.json's document and its Markdown and HTML pages (without charts). */
export function reportOf(
  records: readonly ConversationRecord[],
  runs: readonly ReportRun[] = [{ name: 'hand', createdAt: '2026-12-01T00:00:00Z', seed: 0, packageVersion: 'test' }],
): {
  document: ReportDocument;
  markdown: string;
  html: string;
} {
  const analysis = analyzeTournament(records, { intervals: { method: 't', replicates: 0, confidence: 0.95, seed: 0 }, samplesPerKind: 1 });
  const document = buildReportDocument(analysis, { runs, generatedAt: '2026-12-01T00:00:00Z', packageVersion: 'test' });
  const labels = createModelLabels(document.meta.models);
  return { document, markdown: markdownReport(document, labels, []), html: htmlReport(document, labels, []) };
}

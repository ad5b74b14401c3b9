import type {
  ProtocolEstimateCell,
  ProtocolFigures,
  ProtocolFiguresOptions,
  ProtocolJudgeStudy,
  ProtocolTable,
  ProtocolTableCell,
} from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { PERSUSAFETY_PROTOCOL } from '../persusafety-design.js';
import type { PersusafetyScore } from '../persusafety-facts.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../persusafety-record.js';
import { readPersusafetyLabelRecord } from './persusafety-analysis.js';
import { type JudgedPair, persusafetyJudgeAgreement, type StrategyAgreement } from './persusafety-judge-agreement.js';

/**
 * The agreement between a PersuSafety run's own judge (the paper's, for an import) and another judge's study of the
 * same conversations (`pmiyc analyze --run RUN --judge MODEL`), as a part of the run's report section: a paragraph,
 * a table per study (`<run>.judge-agreement-<study>.csv`) and its numbers for report.json (docs/design/protocols.md,
 * "Another judge of a protocol run"; the statistic in docs/design/statistics.md).
 */

const scoresOf = (judgement: { readonly scores: ReadonlyArray<{ readonly score: PersusafetyScore }> }, read: boolean) =>
  read ? judgement.scores.map((entry) => entry.score) : undefined;

/** What the two judges gave, conversation by conversation, and how many each left without scores. */
function pairsOf(run: StudyRun, records: Iterable<StoredProtocolRecord>, study: ProtocolJudgeStudy) {
  const second = new Map<string, readonly PersusafetyScore[] | undefined>();
  let secondJudge: string | undefined;
  for (const stored of study.records) {
    const label = readPersusafetyLabelRecord(study.run.name, stored);
    secondJudge ??= label.judge;
    second.set(stored.itemKey, scoresOf(label, label.status === 'read'));
  }
  const pairs: JudgedPair[] = [];
  let firstJudge: string | undefined;
  for (const stored of records) {
    if (!second.has(stored.itemKey)) continue;
    const record: PersusafetyRecord = readPersusafetyRecord(run.name, stored);
    firstJudge ??= record.judgement.judge;
    const read = record.judgement.status === undefined || record.judgement.status === 'read';
    pairs.push({ itemKey: stored.itemKey, first: scoresOf(record.judgement, read), second: second.get(stored.itemKey) });
  }
  const studyJudge = study.run.config.kind === 'protocol-analysis' ? study.run.config.design.judge : undefined;
  return { pairs, firstJudge: firstJudge ?? 'the run\u2019s judge', secondJudge: secondJudge ?? studyJudge ?? 'the study\u2019s judge' };
}

/** A share of the conversations both judges scored, shown with its n and no interval. */
const shareCell = (share: number, n: number): ProtocolEstimateCell => ({ estimate: share, ciLow: Number.NaN, ciHigh: Number.NaN, n });

function alphaCell(agreement: StrategyAgreement): ProtocolEstimateCell {
  const cell = { estimate: agreement.alpha, ciLow: agreement.ciLow, ciHigh: agreement.ciHigh, n: agreement.conversations };
  if (agreement.conversations === 0) return { ...cell, reason: 'no conversation scored by both judges' };
  if (Number.isNaN(agreement.alpha)) return { ...cell, reason: 'both judges gave every conversation the same score' };
  return cell;
}

/** A table's id from the study's name: lower case, digits and dashes. */
const tableId = (study: string) =>
  `judge-agreement-${study
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;

function agreementTable(studyName: string, agreements: readonly StrategyAgreement[], judges: { first: string; second: string }): ProtocolTable {
  const rows = agreements.map((agreement): ProtocolTableCell[] => [
    agreement.strategy === 'all' ? 'all 15 strategies (pooled)' : agreement.strategy,
    alphaCell(agreement),
    shareCell(agreement.firstClearlyUsed, agreement.conversations),
    shareCell(agreement.secondClearlyUsed, agreement.conversations),
    shareCell(agreement.sameScore, agreement.conversations),
  ]);
  return {
    id: tableId(studyName),
    title: `Agreement between ${judges.first} and ${judges.second} (study ${studyName})`,
    note: `alpha: Krippendorff's alpha (ordinal) of the two judges' 0/1/2 scores, with its 95% percentile bootstrap interval over conversations; n = conversations both judges scored. The run's judge: ${judges.first}; the study's: ${judges.second}.`,
    header: ['strategy', 'alpha', "scored 2 by the run's judge", "scored 2 by the study's judge", 'same score'],
    rows,
  };
}

/** See the top of this file. */
export function persusafetyJudgeAgreementFigures(
  run: StudyRun,
  records: Iterable<StoredProtocolRecord>,
  study: ProtocolJudgeStudy,
  options: ProtocolFiguresOptions,
): ProtocolFigures {
  const { pairs, firstJudge, secondJudge } = pairsOf(run, records, study);
  const bootstrap = { replicates: options.replicates, confidence: 0.95, seed: options.seed };
  const agreements = persusafetyJudgeAgreement(pairs, bootstrap);
  const both = agreements[0]?.conversations ?? 0;
  const firstMissing = pairs.filter((pair) => pair.first === undefined).length;
  const secondMissing = pairs.filter((pair) => pair.second === undefined).length;
  const paragraph =
    `Study ${study.run.name}: ${secondJudge} scored ${pairs.length} conversations of run ${run.name} again, with the same checklist (the 15 strategies, 0/1/2), ` +
    `to compare with the run's judge, ${firstJudge}; ${both} were scored by both (${firstMissing} have no scores of the run's judge and ${secondMissing} none of the study's: unread or not asked). ` +
    "Krippendorff's alpha is ordinal (0 not used < 1 ambiguous < 2 clearly used, the distance between them not assumed even): 1 is perfect agreement, 0 what chance gives; the interval resamples conversations.";
  return {
    id: `${PERSUSAFETY_PROTOCOL}-${tableId(study.run.name)}`,
    title: `Agreement between two judges: study ${study.run.name}`,
    paragraphs: [paragraph],
    tables: [agreementTable(study.run.name, agreements, { first: firstJudge, second: secondJudge })],
    json: {
      study: study.run.name,
      firstJudge,
      secondJudge,
      metric: 'ordinal',
      intervals: {
        method: 'percentile bootstrap',
        unit: 'conversation',
        confidence: bootstrap.confidence,
        replicates: bootstrap.replicates,
        seed: bootstrap.seed,
      },
      labelled: pairs.length,
      conversations: both,
      withoutScores: { first: firstMissing, second: secondMissing },
      strategies: agreements.map((agreement) => ({ ...agreement })),
    },
  };
}

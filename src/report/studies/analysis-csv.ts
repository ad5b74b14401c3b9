import { stringify } from 'csv-stringify/sync';
import type { ModelLabels } from '../model-labels.js';
import type { ReportDocument } from '../report-document.js';

type Value = string | number | boolean | null;

/** Numbers at full precision; no data (NaN) as an empty field (as the report's other CSV files). */
function csv(header: readonly string[], rows: readonly (readonly Value[])[]): string {
  const clean = rows.map((row) => row.map((value) => (typeof value === 'number' && !Number.isFinite(value) ? '' : (value ?? ''))));
  return stringify([header, ...clean], { cast: { boolean: (value) => String(value) } });
}

const SHARE = ['share', 'ciLow', 'ciHigh', 'claims', 'thin'];
const share = (estimate: { share: number; ciLow: number; ciHigh: number; claims: number; thin: boolean }): Value[] => [
  estimate.share,
  estimate.ciLow,
  estimate.ciHigh,
  estimate.claims,
  estimate.thin,
];

/**
 * The analysis study's tables as CSV files, only those whose report.json field is present:
 * `techniques.csv`, `technique-effects.csv`, `ethics.csv` (one row per persuader and strategy, the
 * strategy `any` first), `refusals.csv`, `role-breaks.csv`, `judge-agreement.csv`. Every row names
 * the study and the judge (docs/design/report.md).
 */
export function analysisCsvFiles(document: ReportDocument, labels: ModelLabels): Array<{ path: string; content: string }> {
  const files: Array<{ path: string; content: string }> = [];
  const { techniques, ethics, refusals, roleBreaks, judgeAgreement } = document;
  if (techniques) {
    const about = [techniques.study, techniques.judge.model];
    files.push({
      path: 'techniques.csv',
      content: csv(
        ['study', 'judge', 'domain', 'setting', 'persuader', 'simulated', 'technique', 'turns', 'usedTurns', ...SHARE],
        techniques.perModel.map((row) => [
          ...about,
          row.domain,
          row.setting,
          row.persuader,
          labels.isSimulated(row.persuader),
          row.technique,
          row.turns,
          row.usedTurns,
          ...share(row),
        ]),
      ),
    });
    files.push({
      path: 'technique-effects.csv',
      content: csv(
        [
          'study',
          'judge',
          'domain',
          'setting',
          'technique',
          'usedTurns',
          'otherTurns',
          'status',
          'reason',
          'value',
          'ciLow',
          'ciHigh',
          'se',
          'claims',
          'pairs',
          'thin',
          'p',
          'pHolm',
        ],
        techniques.effects.map((row) => [
          ...about,
          row.domain,
          row.setting,
          row.technique,
          row.usedTurns,
          row.otherTurns,
          row.status,
          ...(row.status === 'estimated'
            ? [null, row.value, row.ciLow, row.ciHigh, row.se, row.claims, row.pairs, row.thin, row.p, row.pHolm]
            : [row.reason, null, null, null, null, null, null, null, null, null]),
        ]),
      ),
    });
  }
  if (ethics) {
    files.push({
      path: 'ethics.csv',
      content: csv(
        [
          'study',
          'judge',
          'domain',
          'setting',
          'persuader',
          'simulated',
          'strategy',
          'conversations',
          'withStrategy',
          ...SHARE,
          'effectiveness',
          'effectivenessCiLow',
          'effectivenessCiHigh',
          'turns',
          'turnsWithStrategy',
          'turnShare',
          'turnShareCiLow',
          'turnShareCiHigh',
          'meanNextChangeWith',
          'turnsWith',
          'meanNextChangeWithout',
          'turnsWithout',
          'withMinusWithout',
          'withMinusWithoutCiLow',
          'withMinusWithoutCiHigh',
          'withMinusWithoutP',
          'withMinusWithoutPHolm',
        ],
        ethics.perModel.flatMap((row) => {
          const relation = row.withVsWithout;
          const outcome: Value[] = [
            row.effectiveness?.value ?? null,
            row.effectiveness?.ciLow ?? null,
            row.effectiveness?.ciHigh ?? null,
            row.turns,
            row.turnsWithUnethical,
            row.turnShare.share,
            row.turnShare.ciLow,
            row.turnShare.ciHigh,
            ...(relation.status === 'estimated'
              ? [
                  relation.meanWith,
                  relation.turnsWith,
                  relation.meanWithout,
                  relation.turnsWithout,
                  relation.difference,
                  relation.ciLow,
                  relation.ciHigh,
                  relation.p,
                  relation.pHolm,
                ]
              : [null, relation.turnsWith, null, relation.turnsWithout, null, null, null, null, null]),
          ];
          const where = [ethics.study, ethics.judge.model, row.domain, row.setting, row.persuader, labels.isSimulated(row.persuader)];
          return [
            [...where, 'any', row.conversations, row.withUnethical, ...share(row), ...outcome],
            ...row.strategies.map((strategy) => [
              ...where,
              strategy.id,
              row.conversations,
              strategy.conversations,
              ...share(strategy),
              ...outcome.map(() => null),
            ]),
          ];
        }),
      ),
    });
  }
  for (const [path, section] of [
    ['refusals.csv', refusals],
    ['role-breaks.csv', roleBreaks],
  ] as const) {
    if (!section) continue;
    files.push({
      path,
      content: csv(
        [
          'study',
          'judge',
          'domain',
          'setting',
          'role',
          'model',
          'simulated',
          'turns',
          'flaggedTurns',
          'turnShare',
          'turnCiLow',
          'turnCiHigh',
          'conversations',
          'flaggedConversations',
          'conversationShare',
          'conversationCiLow',
          'conversationCiHigh',
          'claims',
          'thin',
        ],
        section.perModel.map((row) => [
          section.study,
          section.judge.model,
          row.domain,
          row.setting,
          row.role,
          row.model,
          labels.isSimulated(row.model),
          row.turns,
          row.flaggedTurns,
          row.turnShare.share,
          row.turnShare.ciLow,
          row.turnShare.ciHigh,
          row.conversations,
          row.flaggedConversations,
          row.conversationShare.share,
          row.conversationShare.ciLow,
          row.conversationShare.ciHigh,
          row.turnShare.claims,
          row.turnShare.thin || row.conversationShare.thin,
        ]),
      ),
    });
  }
  if (judgeAgreement) {
    files.push({
      path: 'judge-agreement.csv',
      content: csv(
        ['study', 'judges', 'label', 'role', 'alpha', 'ciLow', 'ciHigh', 'turns', 'yes', 'pairwiseAgreement'],
        judgeAgreement.labels.map((row) => [
          judgeAgreement.study,
          judgeAgreement.judges.map((judge) => judge.model).join(' | '),
          row.label,
          row.role,
          row.alpha,
          row.ciLow,
          row.ciHigh,
          row.turns,
          row.yes,
          row.pairwiseAgreement,
        ]),
      ),
    });
  }
  return files;
}

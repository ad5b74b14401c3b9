import type { ShareEstimate } from '../../metrics/intervals/claim-shares.js';
import type { TechniqueEffect } from '../../metrics/techniques/technique-effects.js';
import type { TechniqueShare } from '../../metrics/techniques/technique-profiles.js';
import type { FlagRate } from '../../metrics/techniques/turn-flags.js';
import { type CsvColumn, csvTable } from '../csv/csv-table.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportDocument } from '../report-document.js';
import type { AnalysisSource, EthicsSection, FlagSection, JudgeAgreementSection, TechniquesSection } from './analysis-figures.js';

/** The columns of a share with its interval over claims: `share`, `ciLow`, `ciHigh`, `claims`, `thin`. */
function shareColumns<Row>(shareOf: (row: Row) => ShareEstimate | undefined): CsvColumn<Row>[] {
  return [
    { header: 'share', value: (row) => shareOf(row)?.share },
    { header: 'ciLow', value: (row) => shareOf(row)?.ciLow },
    { header: 'ciHigh', value: (row) => shareOf(row)?.ciHigh },
    { header: 'claims', value: (row) => shareOf(row)?.claims },
    { header: 'thin', value: (row) => shareOf(row)?.thin },
  ];
}

/** The first columns of every row: the study and the judge whose labels the numbers use. */
const aboutColumns = <Row>(source: AnalysisSource): CsvColumn<Row>[] => [
  { header: 'study', value: () => source.study },
  { header: 'judge', value: () => source.judge.model },
];

/** techniques.csv: one row per condition, persuader and technique. */
const techniqueColumns = (techniques: TechniquesSection, labels: ModelLabels): CsvColumn<TechniqueShare>[] => [
  ...aboutColumns<TechniqueShare>(techniques),
  { header: 'domain', value: (row) => row.domain },
  { header: 'setting', value: (row) => row.setting },
  { header: 'persuader', value: (row) => row.persuader },
  { header: 'simulated', value: (row) => labels.isSimulated(row.persuader) },
  { header: 'technique', value: (row) => row.technique },
  { header: 'turns', value: (row) => row.turns },
  { header: 'usedTurns', value: (row) => row.usedTurns },
  ...shareColumns<TechniqueShare>((row) => row),
];

/** technique-effects.csv: one row per condition and technique; a technique without an estimate has its reason and no numbers. */
function effectColumns(techniques: TechniquesSection): CsvColumn<TechniqueEffect>[] {
  const estimated = (row: TechniqueEffect) => (row.status === 'estimated' ? row : undefined);
  return [
    ...aboutColumns<TechniqueEffect>(techniques),
    { header: 'domain', value: (row) => row.domain },
    { header: 'setting', value: (row) => row.setting },
    { header: 'technique', value: (row) => row.technique },
    { header: 'usedTurns', value: (row) => row.usedTurns },
    { header: 'otherTurns', value: (row) => row.otherTurns },
    { header: 'status', value: (row) => row.status },
    { header: 'reason', value: (row) => (row.status === 'estimated' ? null : row.reason) },
    { header: 'value', value: (row) => estimated(row)?.value },
    { header: 'ciLow', value: (row) => estimated(row)?.ciLow },
    { header: 'ciHigh', value: (row) => estimated(row)?.ciHigh },
    { header: 'se', value: (row) => estimated(row)?.se },
    { header: 'claims', value: (row) => estimated(row)?.claims },
    { header: 'pairs', value: (row) => estimated(row)?.pairs },
    { header: 'thin', value: (row) => estimated(row)?.thin },
    { header: 'p', value: (row) => estimated(row)?.p },
    { header: 'pHolm', value: (row) => estimated(row)?.pHolm },
  ];
}

type PersuaderEthicsRow = EthicsSection['perModel'][number];

/** A line of ethics.csv: a persuader over any strategy (with its outcomes), or over one strategy (without). */
interface EthicsLine {
  readonly row: PersuaderEthicsRow;
  readonly strategy: PersuaderEthicsRow['strategies'][number] | undefined;
}

/** The outcome columns of ethics.csv, filled on the row of any strategy only. */
function ethicsOutcomeColumns(): CsvColumn<EthicsLine>[] {
  const outcome = (line: EthicsLine) => (line.strategy === undefined ? line.row : undefined);
  const relation = (line: EthicsLine) => outcome(line)?.withVsWithout;
  const estimated = (line: EthicsLine) => {
    const found = relation(line);
    return found?.status === 'estimated' ? found : undefined;
  };
  return [
    { header: 'effectiveness', value: (line) => outcome(line)?.effectiveness?.value },
    { header: 'effectivenessCiLow', value: (line) => outcome(line)?.effectiveness?.ciLow },
    { header: 'effectivenessCiHigh', value: (line) => outcome(line)?.effectiveness?.ciHigh },
    { header: 'turns', value: (line) => outcome(line)?.turns },
    { header: 'turnsWithStrategy', value: (line) => outcome(line)?.turnsWithUnethical },
    { header: 'turnShare', value: (line) => outcome(line)?.turnShare.share },
    { header: 'turnShareCiLow', value: (line) => outcome(line)?.turnShare.ciLow },
    { header: 'turnShareCiHigh', value: (line) => outcome(line)?.turnShare.ciHigh },
    { header: 'meanNextChangeWith', value: (line) => estimated(line)?.meanWith },
    { header: 'turnsWith', value: (line) => relation(line)?.turnsWith },
    { header: 'meanNextChangeWithout', value: (line) => estimated(line)?.meanWithout },
    { header: 'turnsWithout', value: (line) => relation(line)?.turnsWithout },
    { header: 'withMinusWithout', value: (line) => estimated(line)?.difference },
    { header: 'withMinusWithoutCiLow', value: (line) => estimated(line)?.ciLow },
    { header: 'withMinusWithoutCiHigh', value: (line) => estimated(line)?.ciHigh },
    { header: 'withMinusWithoutP', value: (line) => estimated(line)?.p },
    { header: 'withMinusWithoutPHolm', value: (line) => estimated(line)?.pHolm },
  ];
}

/** ethics.csv: one row per condition and persuader over any strategy (`any`), then one per strategy. */
const ethicsColumns = (ethics: EthicsSection, labels: ModelLabels): CsvColumn<EthicsLine>[] => [
  ...aboutColumns<EthicsLine>(ethics),
  { header: 'domain', value: ({ row }) => row.domain },
  { header: 'setting', value: ({ row }) => row.setting },
  { header: 'persuader', value: ({ row }) => row.persuader },
  { header: 'simulated', value: ({ row }) => labels.isSimulated(row.persuader) },
  { header: 'strategy', value: ({ strategy }) => strategy?.id ?? 'any' },
  { header: 'conversations', value: ({ row }) => row.conversations },
  { header: 'withStrategy', value: ({ row, strategy }) => strategy?.conversations ?? row.withUnethical },
  ...shareColumns<EthicsLine>(({ row, strategy }) => strategy ?? row),
  ...ethicsOutcomeColumns(),
];

const ethicsLines = (ethics: EthicsSection): EthicsLine[] =>
  ethics.perModel.flatMap((row) => [{ row, strategy: undefined }, ...row.strategies.map((strategy) => ({ row, strategy }))]);

/** refusals.csv and role-breaks.csv: one row per condition, role and model. */
const flagColumns = (section: FlagSection, labels: ModelLabels): CsvColumn<FlagRate>[] => [
  ...aboutColumns<FlagRate>(section),
  { header: 'domain', value: (row) => row.domain },
  { header: 'setting', value: (row) => row.setting },
  { header: 'role', value: (row) => row.role },
  { header: 'model', value: (row) => row.model },
  { header: 'simulated', value: (row) => labels.isSimulated(row.model) },
  { header: 'turns', value: (row) => row.turns },
  { header: 'flaggedTurns', value: (row) => row.flaggedTurns },
  { header: 'turnShare', value: (row) => row.turnShare.share },
  { header: 'turnCiLow', value: (row) => row.turnShare.ciLow },
  { header: 'turnCiHigh', value: (row) => row.turnShare.ciHigh },
  { header: 'conversations', value: (row) => row.conversations },
  { header: 'flaggedConversations', value: (row) => row.flaggedConversations },
  { header: 'conversationShare', value: (row) => row.conversationShare.share },
  { header: 'conversationCiLow', value: (row) => row.conversationShare.ciLow },
  { header: 'conversationCiHigh', value: (row) => row.conversationShare.ciHigh },
  { header: 'claims', value: (row) => row.turnShare.claims },
  { header: 'thin', value: (row) => row.turnShare.thin || row.conversationShare.thin },
];

/** judge-agreement.csv: one row per label and role, over the study's judges. */
const agreementColumns = (agreement: JudgeAgreementSection): CsvColumn<JudgeAgreementSection['labels'][number]>[] => [
  { header: 'study', value: () => agreement.study },
  { header: 'judges', value: () => agreement.judges.map((judge) => judge.model).join(' | ') },
  { header: 'label', value: (row) => row.label },
  { header: 'role', value: (row) => row.role },
  { header: 'alpha', value: (row) => row.alpha },
  { header: 'ciLow', value: (row) => row.ciLow },
  { header: 'ciHigh', value: (row) => row.ciHigh },
  { header: 'turns', value: (row) => row.turns },
  { header: 'yes', value: (row) => row.yes },
  { header: 'pairwiseAgreement', value: (row) => row.pairwiseAgreement },
];

/**
 * The analysis study's tables as CSV files, only those whose report.json field is present:
 * `techniques.csv`, `technique-effects.csv`, `ethics.csv` (one row per persuader and strategy, the
 * strategy `any` first), `refusals.csv`, `role-breaks.csv`, `judge-agreement.csv`. Every row names
 * the study and the judge (docs/design/report.md).
 */
export function analysisCsvFiles(document: ReportDocument, labels: ModelLabels): Array<{ path: string; content: string }> {
  const { techniques, ethics, refusals, roleBreaks, judgeAgreement } = document;
  const flagFile = (path: string, section: FlagSection) => ({ path, content: csvTable(flagColumns(section, labels), section.perModel) });
  return [
    ...(techniques
      ? [
          { path: 'techniques.csv', content: csvTable(techniqueColumns(techniques, labels), techniques.perModel) },
          { path: 'technique-effects.csv', content: csvTable(effectColumns(techniques), techniques.effects) },
        ]
      : []),
    ...(ethics ? [{ path: 'ethics.csv', content: csvTable(ethicsColumns(ethics, labels), ethicsLines(ethics)) }] : []),
    ...(refusals ? [flagFile('refusals.csv', refusals)] : []),
    ...(roleBreaks ? [flagFile('role-breaks.csv', roleBreaks)] : []),
    ...(judgeAgreement ? [{ path: 'judge-agreement.csv', content: csvTable(agreementColumns(judgeAgreement), judgeAgreement.labels) }] : []),
  ];
}

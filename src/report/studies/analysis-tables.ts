import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { formatP } from '../../domain/text-labels.js';
import type { ShareEstimate } from '../../metrics/intervals/claim-shares.js';
import type { FlagRate } from '../../metrics/techniques/turn-flags.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { formatNumber } from '../number-format.js';
import type { EstimateCell, ReportTable } from '../tables/report-tables.js';
import type { EthicsSection, FlagSection, JudgeAgreementSection, StudyJudge, TechniquesSection } from './analysis-figures.js';

interface Condition {
  readonly domain: Domain;
  readonly setting: Setting;
}

const ORDER = (condition: Condition) => (condition.domain === 'subjective' ? 0 : 2) + (condition.setting === 'single' ? 0 : 1);
const byCondition = (a: Condition, b: Condition) => ORDER(a) - ORDER(b);
const sameCondition = (a: Condition, b: Condition) => a.domain === b.domain && a.setting === b.setting;

/** The conditions a list of rows covers, in the paper's order. */
export function analysisConditions(rows: readonly Condition[]): Condition[] {
  const seen: Condition[] = [];
  for (const row of rows) if (!seen.some((entry) => sameCondition(entry, row))) seen.push({ domain: row.domain, setting: row.setting });
  return seen.sort(byCondition);
}

const shareCell = (share: ShareEstimate, n: number): EstimateCell => ({ estimate: share.share, ciLow: share.ciLow, ciHigh: share.ciHigh, n, thin: share.thin });

/** A judge's name as every output shows it: a simulated one says so. */
export function judgeText(judge: StudyJudge): string {
  return judge.simulated ? `${judge.model} [simulated]` : judge.model;
}

/** "Social proof (social-proof)" from the study's taxonomy, or the id alone for one it does not list. */
function itemName(section: TechniquesSection, id: string): string {
  const item = [...section.taxonomy.techniques, ...section.taxonomy.unethical].find((entry) => entry.id === id);
  return item ? `${item.name} (${id})` : id;
}

/** One condition's technique profiles: techniques down, persuaders across; techniques no judge saw in the condition are left out. */
export function techniqueProfileTable(section: TechniquesSection, condition: Condition): ReportTable {
  const rows = section.perModel.filter((row) => sameCondition(row, condition));
  const persuaders = [...new Set(rows.map((row) => row.persuader))].sort();
  const used = [...new Set(rows.filter((row) => row.usedTurns > 0).map((row) => row.technique))];
  return {
    header: ['technique (share of labelled turns; n = turns)', ...persuaders.map((model) => ({ model }))],
    rows: used.map((technique) => [
      itemName(section, technique),
      ...persuaders.map((persuader): EstimateCell => {
        const row = rows.find((entry) => entry.persuader === persuader && entry.technique === technique)!;
        return { estimate: row.share, ciLow: row.ciLow, ciHigh: row.ciHigh, n: row.turns, thin: row.thin };
      }),
    ]),
  };
}

/** The techniques the judge never named in a condition (left out of its profile table). */
export function unusedTechniques(section: TechniquesSection, condition: Condition): string[] {
  const rows = section.perModel.filter((row) => sameCondition(row, condition));
  const ids = [...new Set(rows.map((row) => row.technique))];
  return ids.filter((id) => rows.every((row) => row.technique !== id || row.usedTurns === 0)).map((id) => itemName(section, id));
}

const NO_EFFECT_REASONS = {
  'never-used': 'no estimate: never used',
  'always-used': 'no estimate: used on every turn',
  'no-pair-with-both': 'no estimate: no pair has turns with and without it',
} as const;

/** Every technique's association with the persuadee's next change, per condition. */
export function techniqueEffectsTable(section: TechniquesSection): ReportTable {
  const rows = [...section.effects].sort((a, b) => byCondition(a, b));
  return {
    header: ['condition', 'technique', 'turns with it', 'turns without', 'next change with minus without, scale points (n = claims)', 'p', 'p (Holm)'],
    rows: rows.map((effect) => [
      conditionLabel(effect.domain, effect.setting),
      itemName(section, effect.technique),
      effect.usedTurns,
      effect.otherTurns,
      effect.status === 'estimated'
        ? { estimate: effect.value, ciLow: effect.ciLow, ciHigh: effect.ciHigh, n: effect.claims, thin: effect.thin }
        : NO_EFFECT_REASONS[effect.reason],
      effect.status === 'estimated' ? formatP(effect.p) : '',
      effect.status === 'estimated' ? formatP(effect.pHolm) : '',
    ]),
  };
}

const NO_RELATION_REASONS = {
  'never-used': 'no estimate: no turn of a completed conversation with one',
  'always-used': 'no estimate: one on every turn of its completed conversations',
  'no-pair-with-both': 'no estimate: no persuadee saw turns of both kinds',
} as const;

/** The most frequent strategies of a persuader, "Deception 0.40" (at most three). */
function topStrategies(section: TechniquesSection | undefined, row: EthicsSection['perModel'][number]): string {
  const used = row.strategies
    .filter((strategy) => strategy.conversations > 0)
    .sort((a, b) => b.conversations - a.conversations)
    .slice(0, 3);
  if (used.length === 0) return 'none';
  const name = (id: string) => section?.taxonomy.unethical.find((item) => item.id === id)?.name ?? id;
  return used.map((strategy) => `${name(strategy.id)} ${formatNumber(strategy.share)}`).join('; ');
}

/** Per condition and persuader: the unethical shares, the strategies, effectiveness, and the next change after turns with one against without. */
export function ethicsTable(section: EthicsSection, techniques: TechniquesSection | undefined): ReportTable {
  const rows = [...section.perModel].sort((a, b) => byCondition(a, b) || a.persuader.localeCompare(b.persuader));
  return {
    header: [
      'condition',
      'persuader',
      'conversations with an unethical strategy (n = conversations)',
      'turns with one (n = turns)',
      'most frequent strategies (share of conversations)',
      'effectiveness, mean NC (n = conversations)',
      'mean next change after turns with / without one',
      'next change with minus without, within persuadee, scale points (n = claims)',
      'p (Holm)',
    ],
    rows: rows.map((row) => {
      const effectiveness = row.effectiveness;
      const relation = row.withVsWithout;
      return [
        conditionLabel(row.domain, row.setting),
        { model: row.persuader },
        shareCell(row, row.conversations),
        shareCell(row.turnShare, row.turns),
        topStrategies(techniques, row),
        effectiveness
          ? { estimate: effectiveness.value, ciLow: effectiveness.ciLow, ciHigh: effectiveness.ciHigh, n: effectiveness.n, thin: effectiveness.thin }
          : 'n/a',
        relation.status === 'estimated'
          ? `${formatNumber(relation.meanWith)} (n = ${relation.turnsWith}) / ${formatNumber(relation.meanWithout)} (n = ${relation.turnsWithout})`
          : `n = ${relation.turnsWith} / ${relation.turnsWithout}`,
        relation.status === 'estimated'
          ? { estimate: relation.difference, ciLow: relation.ciLow, ciHigh: relation.ciHigh, n: relation.claims, thin: relation.thin }
          : NO_RELATION_REASONS[relation.reason],
        relation.status === 'estimated' ? formatP(relation.pHolm) : '',
      ];
    }),
  };
}

const ROLE_ORDER = { persuader: 0, persuadee: 1 } as const;

const sortFlags = (rows: readonly FlagRate[]) =>
  [...rows].sort((a, b) => byCondition(a, b) || ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.model.localeCompare(b.model));

/** Refusals to persuade, per condition and persuader. */
export function refusalsTable(section: FlagSection): ReportTable {
  return {
    header: ['condition', 'persuader', 'refused turns (n = labelled turns)', 'conversations with a refusal (n = conversations)'],
    rows: sortFlags(section.perModel).map((row) => [
      conditionLabel(row.domain, row.setting),
      { model: row.model },
      shareCell(row.turnShare, row.turns),
      shareCell(row.conversationShare, row.conversations),
    ]),
  };
}

/** Turns out of role, per condition, role and model. */
export function roleBreaksTable(section: FlagSection): ReportTable {
  return {
    header: ['condition', 'role', 'model', 'turns out of role (n = labelled turns)', 'conversations with one (n = conversations)'],
    rows: sortFlags(section.perModel).map((row) => [
      conditionLabel(row.domain, row.setting),
      row.role,
      { model: row.model },
      shareCell(row.turnShare, row.turns),
      shareCell(row.conversationShare, row.conversations),
    ]),
  };
}

/** Krippendorff's alpha per label, over the turns two or more judges labelled (labels no such turn had are left out). */
export function judgeAgreementTable(section: JudgeAgreementSection, techniques: TechniquesSection | undefined): ReportTable {
  const name = (label: string) => {
    const [kind, id] = label.split(':');
    if (id === undefined) return label === 'refused' ? 'refused' : 'left its role';
    const item = [...(techniques?.taxonomy.techniques ?? []), ...(techniques?.taxonomy.unethical ?? [])].find((entry) => entry.id === id);
    return `${kind === 'technique' ? 'technique' : 'unethical'}: ${item ? `${item.name} (${id})` : id}`;
  };
  return {
    header: ['label', 'role', "Krippendorff's alpha, nominal (n = turns)", 'yes among the labels', 'judge pairs agreeing'],
    rows: section.labels
      .filter((entry) => entry.turns > 0)
      .map((entry) => [
        name(entry.label),
        entry.role,
        { estimate: entry.alpha, ciLow: entry.ciLow, ciHigh: entry.ciHigh, n: entry.turns },
        entry.yes,
        formatNumber(entry.pairwiseAgreement),
      ]),
  };
}

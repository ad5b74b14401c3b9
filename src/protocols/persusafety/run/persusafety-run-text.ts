import type { IntervalOptions } from '../../../metrics/intervals/claim-estimates.js';
import type { ShareEstimate } from '../../../metrics/intervals/claim-shares.js';
import { type PersusafetyConditionDifference, persusafetyConditionComparison } from '../persusafety-condition-comparison.js';
import type { PersusafetyRecord } from '../persusafety-record.js';
import { type PersusafetyGroupShares, type PersusafetyScoredConversation, persusafetyStrategyShares } from '../persusafety-strategy-shares.js';
import { type PersusafetyRefusalRate, persusafetyTaskRefusals } from '../persusafety-task-refusals.js';

/**
 * PersuSafety's closing text (what `pmiyc run --protocol persusafety` prints once a run ends), per persuader: the
 * task-refusal rate by harmfulness level, then for each scene set (and constraint) the persuadee's decisions and
 * each strategy's share of conversations the judge scored 2, over all profiles with its interval and by profile,
 * and the profile shown against hidden, paired by scene. Plain text, pure.
 */

const percent = (value: number) => (Number.isNaN(value) ? '-' : `${(100 * value).toFixed(1)}%`);
const signedPercent = (value: number) => (Number.isNaN(value) ? '-' : `${value >= 0 ? '+' : ''}${(100 * value).toFixed(1)}%`);

/** A share with its interval: "30.0% [12.0%, 48.0%]", or the share alone without one. */
function shareText(share: ShareEstimate): string {
  if (Number.isNaN(share.share)) return '-';
  return Number.isNaN(share.ciLow) ? percent(share.share) : `${percent(share.share)} [${percent(share.ciLow)}, ${percent(share.ciHigh)}]`;
}

/** A paired difference with its interval: "+10.0% [+2.0%, +18.0%]". */
function differenceText(difference: PersusafetyConditionDifference): string {
  if (Number.isNaN(difference.difference)) return '-';
  const interval = Number.isNaN(difference.ciLow) ? '' : ` [${signedPercent(difference.ciLow)}, ${signedPercent(difference.ciHigh)}]`;
  return `${signedPercent(difference.difference)}${interval}`;
}

/** The group a record counts in: its scene set, and on a neutral scene the constraint it was played under. */
function groupLabelOf(record: PersusafetyRecord): string {
  const constraint = record.played?.constraint ?? 'none';
  return constraint === 'none' ? record.study : `${record.study}, ${constraint}`;
}

/** What the shares and comparisons read of a record: its group as the study. */
const scoredOf = (record: PersusafetyRecord): PersusafetyScoredConversation => ({ ...record, study: groupLabelOf(record) });

function refusalLine(rates: readonly PersusafetyRefusalRate[]): string {
  return `  task declined: ${rates.map((rate) => `${rate.level} ${shareText(rate)} (${rate.refused} of ${rate.conversations})`).join(', ')}`;
}

/** Rows of text padded into columns. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `    ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd());
}

/** The plain share of `index`'s strategy scored 2 under one profile, over both conditions. */
function profileShare(groupShares: readonly PersusafetyGroupShares[], profile: string, index: number): string {
  const counted = groupShares.filter((shares) => shares.profile === profile).map((shares) => shares.strategies[index]!.clearlyUsed);
  const total = counted.reduce((sum, share) => sum + share.conversations, 0);
  return total === 0 ? '-' : percent(counted.reduce((sum, share) => sum + share.count, 0) / total);
}

/** The strategies any conversation of the group was scored 2 on, as a table: by condition with intervals, by profile, and shown against hidden; the others named. */
function strategyLines(groupShares: readonly PersusafetyGroupShares[], differences: readonly PersusafetyConditionDifference[]): string[] {
  const all = groupShares.filter((shares) => shares.profile === 'all');
  const profiles = [...new Set(groupShares.flatMap((shares) => (shares.profile === 'all' ? [] : [shares.profile])))];
  const strategies = all[0]!.strategies.map((strategy) => strategy.strategy);
  const used = strategies.flatMap((_, index) => (all.some((shares) => shares.strategies[index]!.clearlyUsed.count > 0) ? [index] : []));
  const paired = differences.length > 0;
  const header = [
    'clearly used (scored 2)',
    ...all.map((shares) => `profile ${shares.condition === 'visible' ? 'shown' : 'hidden'}`),
    ...profiles,
    ...(paired ? ['shown - hidden'] : []),
  ];
  const rows = used.map((index) => {
    const difference = differences.find((candidate) => candidate.measure === strategies[index]);
    return [
      strategies[index]!,
      ...all.map((shares) => shareText(shares.strategies[index]!.clearlyUsed)),
      ...profiles.map((profile) => profileShare(groupShares, profile, index)),
      ...(paired ? [difference ? differenceText(difference) : '-'] : []),
    ];
  });
  const unused = strategies.filter((_, index) => !used.includes(index));
  return [
    ...(rows.length > 0 ? columns([header, ...rows]) : []),
    ...(unused.length > 0 ? [`    never clearly used: ${unused.length === strategies.length ? 'any strategy' : unused.join(', ')}`] : []),
  ];
}

/** One group's decisions and strategies, and its profile shown against hidden, paired by scene. */
function groupLines(groupShares: readonly PersusafetyGroupShares[], differences: readonly PersusafetyConditionDifference[], unread: number): string[] {
  const decisions = groupShares
    .filter((shares) => shares.profile === 'all')
    .map((shares) => {
      const undecided = shares.undecided > 0 ? `; ${shares.undecided} undecided` : '';
      return `    profile ${shares.condition === 'visible' ? 'shown' : 'hidden'}: accepted ${shareText(shares.accepted)}, rejected ${shareText(shares.rejected)}${undecided}`;
    });
  const any = differences.find((difference) => difference.measure === 'any strategy');
  const accepted = differences.find((difference) => difference.measure === 'accepted');
  const paired =
    any || accepted
      ? [
          `    shown - hidden, paired by scene: any strategy clearly used ${any ? differenceText(any) : '-'}; accepted ${accepted ? differenceText(accepted) : '-'}`,
        ]
      : [];
  const unreadLine = unread > 0 ? [`    ${unread} judge answers could not be read: in no strategy share`] : [];
  return [...decisions, ...strategyLines(groupShares, differences), ...paired, ...unreadLine];
}

/** What every persuader's lines are made of: the records, the refusal rates, the strategy shares and the paired differences. */
interface RunFigures {
  readonly records: readonly PersusafetyRecord[];
  readonly refusals: ReturnType<typeof persusafetyTaskRefusals>;
  readonly shares: readonly PersusafetyGroupShares[];
  readonly differences: readonly PersusafetyConditionDifference[];
}

/** One persuader's lines: its conversations, its task refusals, then each group's decisions and strategies. */
function persuaderLines(figures: RunFigures, persuader: string, label: string): string[] {
  const own = figures.records.filter((record) => record.persuader === persuader);
  const scenes = new Set(own.map((record) => `${record.study}\u0000${record.scene.id}`)).size;
  const lines = ['', `${label}: ${own.length} conversations on ${scenes} scenes`];
  const rates = figures.refusals.find((entry) => entry.persuader === persuader)?.rates ?? [];
  if (rates.length > 0) lines.push(refusalLine(rates));
  for (const group of [...new Set(own.map(groupLabelOf))]) {
    const inGroup = own.filter((record) => groupLabelOf(record) === group);
    const declined = inGroup.filter((record) => record.played?.stop === 'task-declined').length;
    lines.push(`  ${group}: ${inGroup.length - declined} conversations played, ${declined} declined at the task probe`);
    const groupShares = figures.shares.filter((entry) => entry.persuader === persuader && entry.study === group);
    if (groupShares.length === 0) continue;
    const unread = inGroup.filter((record) => record.judgement.status === 'unread').length;
    const differences = figures.differences.filter((entry) => entry.persuader === persuader && entry.study === group);
    lines.push(...groupLines(groupShares, differences, unread));
  }
  return lines;
}

/** The closing lines of a run's records; `labelOf` shows a model's name (simulated agents labelled so). */
export function persusafetyRunText(
  records: readonly PersusafetyRecord[],
  options: IntervalOptions,
  labelOf: (model: string) => string = (model) => model,
): string[] {
  const played = records.filter((record) => record.played?.stop !== 'task-declined').map(scoredOf);
  const figures: RunFigures = {
    records,
    refusals: persusafetyTaskRefusals(records, options),
    shares: persusafetyStrategyShares(played, options),
    differences: persusafetyConditionComparison(played, options),
  };
  const persuaders = [...new Set(records.map((record) => record.persuader))];
  const confidence = Math.round(100 * options.confidence);
  return [
    `PersuSafety by persuader (${confidence}% intervals over scenes):`,
    ...persuaders.flatMap((persuader) => persuaderLines(figures, persuader, labelOf(persuader))),
  ];
}

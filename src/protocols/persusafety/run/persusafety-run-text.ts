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
  const constraint = record.run?.constraint ?? 'none';
  return constraint === 'none' ? record.study : `${record.study}, ${constraint}`;
}

/** What the shares and comparisons read of a record: its group as the study. */
const scoredOf = (record: PersusafetyRecord): PersusafetyScoredConversation => ({ ...record, study: groupLabelOf(record) });

function refusalLine(rates: readonly PersusafetyRefusalRate[]): string {
  return `  task declined: ${rates.map((rate) => `${rate.level} ${shareText(rate)} (${rate.refused} of ${rate.conversations})`).join('  ')}`;
}

/** Rows of text padded into columns. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `    ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd());
}

/** One group's decisions and strategies: every profile's shares, the shares by profile, and the paired difference where both conditions ran. */
function groupLines(groupShares: readonly PersusafetyGroupShares[], differences: readonly PersusafetyConditionDifference[], unread: number): string[] {
  const all = groupShares.filter((shares) => shares.profile === 'all');
  const profiles = [...new Set(groupShares.filter((shares) => shares.profile !== 'all').map((shares) => shares.profile))];
  const lines = all.map((shares) => {
    const undecided = shares.undecided > 0 ? `; ${shares.undecided} undecided` : '';
    return `    profile ${shares.condition === 'visible' ? 'shown' : 'hidden'}: accepted ${shareText(shares.accepted)}, rejected ${shareText(shares.rejected)}${undecided}`;
  });
  const strategyRows = all[0]!.strategies.map((strategy, index) => {
    const byCondition = all.map((shares) => shareText(shares.strategies[index]!.clearlyUsed));
    const byProfile = profiles.map((profile) => {
      const counted = groupShares.filter((shares) => shares.profile === profile).map((shares) => shares.strategies[index]!.clearlyUsed);
      const count = counted.reduce((sum, share) => sum + share.count, 0);
      const total = counted.reduce((sum, share) => sum + share.conversations, 0);
      return total === 0 ? '-' : percent(count / total);
    });
    const difference = differences.find((candidate) => candidate.measure === strategy.strategy);
    return [strategy.strategy, ...byCondition, ...byProfile, ...(differences.length > 0 ? [difference ? differenceText(difference) : '-'] : [])];
  });
  const header = [
    'clearly used (scored 2)',
    ...all.map((shares) => (shares.condition === 'visible' ? 'profile shown' : 'profile hidden')),
    ...profiles,
    ...(differences.length > 0 ? ['shown - hidden, paired by scene'] : []),
  ];
  const any = differences.find((difference) => difference.measure === 'any strategy');
  const accepted = differences.find((difference) => difference.measure === 'accepted');
  const paired =
    any || accepted
      ? [
          `    shown - hidden, paired by scene: any strategy clearly used ${any ? differenceText(any) : '-'}; accepted ${accepted ? differenceText(accepted) : '-'}`,
        ]
      : [];
  const unreadLine = unread > 0 ? [`    ${unread} judge answers could not be read: in no strategy share`] : [];
  return [...lines, ...columns([header, ...strategyRows]), ...paired, ...unreadLine];
}

/** The closing lines of a run's records; `labelOf` shows a model's name (simulated agents labelled so). */
export function persusafetyRunText(
  records: readonly PersusafetyRecord[],
  options: IntervalOptions,
  labelOf: (model: string) => string = (model) => model,
): string[] {
  const confidence = Math.round(100 * options.confidence);
  const lines = [`PersuSafety by persuader (${confidence}% intervals over scenes):`];
  const refusals = persusafetyTaskRefusals(records, options);
  const played = records.filter((record) => record.run?.stop !== 'task-declined').map(scoredOf);
  const shares = persusafetyStrategyShares(played, options);
  const differences = persusafetyConditionComparison(played, options);
  for (const persuader of [...new Set(records.map((record) => record.persuader))]) {
    const own = records.filter((record) => record.persuader === persuader);
    const scenes = new Set(own.map((record) => `${record.study}\u0000${record.scene.id}`)).size;
    lines.push('', `${labelOf(persuader)}: ${own.length} conversations on ${scenes} scenes`);
    const rates = refusals.find((entry) => entry.persuader === persuader)?.rates ?? [];
    if (rates.length > 0) lines.push(refusalLine(rates));
    for (const group of [...new Set(own.map(groupLabelOf))]) {
      const groupShares = shares.filter((entry) => entry.persuader === persuader && entry.study === group);
      const inGroup = own.filter((record) => groupLabelOf(record) === group);
      const declined = inGroup.filter((record) => record.run?.stop === 'task-declined').length;
      lines.push(`  ${group}: ${inGroup.length - declined} conversations played, ${declined} declined at the task probe`);
      if (groupShares.length === 0) continue;
      const unread = inGroup.filter((record) => record.judgement.status === 'unread').length;
      lines.push(
        ...groupLines(
          groupShares,
          differences.filter((entry) => entry.persuader === persuader && entry.study === group),
          unread,
        ),
      );
    }
  }
  return lines;
}

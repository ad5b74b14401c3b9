import type { Domain } from '../../domain/claim.js';
import type { NoScoreCause, Setting } from '../../domain/conversation.js';
import { pooledAgent } from '../../domain/person-agent.js';
import type { Role } from '../../domain/roles.js';
import type { ArmComparison } from '../../metrics/arms/arm-comparisons.js';
import { ArmContrast } from '../../metrics/arms/arm-contrast.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { effectiveness, type PairMean, susceptibility } from '../../metrics/model-scores.js';
import { addCause, type DesignedAgent, noDataReason, type PairOutcomes, roleCoverage } from '../../metrics/role-coverage.js';
import type { PairCell, PairClaimTotal } from '../../studies/tournament/tournament-browse.js';

/** A model's effectiveness (as persuader) and susceptibility (as persuadee) in one condition, from pair means (SPEC 1.5). */
export interface ModelMeans {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly model: string;
  /** Mean over the persuadees it faced of its per-pair mean NC; null when none of its conversations as persuader completed. */
  readonly effectiveness: number | null;
  readonly susceptibility: number | null;
  /** How many pair means each mean is over. */
  readonly persuadees: number;
  readonly persuaders: number;
  /**
   * Why a mean is null, as the report says it ("6 of 6 failed: format", `noDataReason`): null where there is a
   * mean, or where the model never was in that role (a design with separate persuaders and persuadees).
   */
  readonly effectivenessReason: string | null;
  readonly susceptibilityReason: string | null;
}

/** A pair cell's conversations as role coverage counts them: those with an NC are scored. */
function pairOutcomes(cell: PairCell): PairOutcomes {
  const conversations = cell.completed + cell.failed;
  const unscored = Object.values(cell.unscoredBy).reduce((total, amount) => total + (amount ?? 0), 0);
  return { ...cell, conversations, scored: conversations - unscored };
}

/**
 * Effectiveness and susceptibility per model and condition, by the report's own functions
 * (`metrics/model-scores.ts`) over the store's pair means, so the viewer cannot disagree with the
 * report. Every model of a condition is listed, and every agent `designed` asks for in its setting,
 * with null and why (`roleCoverage`, `noDataReason`) for a role it has no scored conversation in.
 */
export function modelMeans(cells: readonly PairCell[], designed: readonly DesignedAgent[] = []): ModelMeans[] {
  const conditions = new Map<string, { domain: Domain; setting: Setting; pairs: PairMean[] }>();
  for (const cell of cells) {
    const key = `${cell.domain}\u001f${cell.setting}`;
    const condition = conditions.get(key) ?? { domain: cell.domain, setting: cell.setting, pairs: [] };
    conditions.set(key, condition);
    if (cell.meanNc !== null) condition.pairs.push({ persuader: cell.persuader, persuadee: cell.persuadee, n: cell.completed, mean: cell.meanNc });
  }
  const coverage = roleCoverage(cells.map(pairOutcomes), designed);
  const reasonOf = (domain: Domain, setting: Setting, role: Role, model: string) => {
    const entry = coverage.find(
      (candidate) => candidate.domain === domain && candidate.setting === setting && candidate.role === role && candidate.model === model,
    );
    return entry ? noDataReason(entry) : null;
  };
  return [...conditions.values()]
    .flatMap(({ domain, setting, pairs }) => {
      const asPersuader = new Map(effectiveness(pairs).map((entry) => [entry.model, entry]));
      const asPersuadee = new Map(susceptibility(pairs).map((entry) => [entry.model, entry]));
      const models = new Set(coverage.filter((entry) => entry.domain === domain && entry.setting === setting).map((entry) => entry.model));
      return [...models].map((model) => ({
        domain,
        setting,
        model,
        effectiveness: asPersuader.get(model)?.value ?? null,
        susceptibility: asPersuadee.get(model)?.value ?? null,
        persuadees: asPersuader.get(model)?.pairs ?? 0,
        persuaders: asPersuadee.get(model)?.pairs ?? 0,
        effectivenessReason: asPersuader.has(model) ? null : reasonOf(domain, setting, 'persuader', model),
        susceptibilityReason: asPersuadee.has(model) ? null : reasonOf(domain, setting, 'persuadee', model),
      }));
    })
    .sort((a, b) => b.domain.localeCompare(a.domain) || b.setting.localeCompare(a.setting) || a.model.localeCompare(b.model));
}

/**
 * The store's pair cells with every person (`person/<id>`) pooled into `person/*`, as the report's
 * model tables count them: a study's 80 participants are one row and one column, not 80 models. A
 * pooled cell's mean NC is over all its completed conversations.
 */
export function poolPeopleCells(cells: readonly PairCell[]): PairCell[] {
  const pooled = new Map<string, PairCell & { ncSum: number }>();
  for (const cell of cells) {
    const persuader = pooledAgent(cell.persuader);
    const persuadee = pooledAgent(cell.persuadee);
    const key = [cell.domain, cell.setting, persuader, persuadee].join('\u001f');
    const earlier = pooled.get(key);
    const ncSum = (cell.meanNc ?? 0) * cell.completed;
    if (!earlier) {
      pooled.set(key, { ...cell, persuader, persuadee, ncSum });
      continue;
    }
    const completed = earlier.completed + cell.completed;
    const sum = earlier.ncSum + ncSum;
    const unscoredBy: Partial<Record<NoScoreCause, number>> = { ...earlier.unscoredBy };
    for (const [cause, amount] of Object.entries(cell.unscoredBy) as [NoScoreCause, number][]) addCause(unscoredBy, cause, amount);
    pooled.set(key, {
      ...earlier,
      unscoredBy,
      completed,
      failed: earlier.failed + cell.failed,
      earlyStopped: earlier.earlyStopped + cell.earlyStopped,
      meanNc: completed > 0 ? sum / completed : null,
      ncSum: sum,
    });
  }
  return [...pooled.values()].map(({ ncSum: _sum, ...cell }) => cell);
}

/** One side of a comparison: a run, or one setting of a run. */
export interface Arm {
  readonly run: string;
  readonly setting?: Setting;
}

/** The same pair in both arms: its mean NC over the claims both arms hold, `b - a`, and the claims that is over. */
interface ComparedPair {
  readonly domain: Domain;
  /** The condition when two runs are compared setting by setting; null when the arms are settings. */
  readonly setting: Setting | null;
  readonly persuader: string;
  readonly persuadee: string;
  /** Over the shared claims; where the pair is in one arm only (or on no common claim), its own mean, and no difference. */
  readonly a: number | null;
  readonly b: number | null;
  readonly difference: number | null;
  readonly claims: number;
  readonly aCompleted: number;
  readonly bCompleted: number;
}

/**
 * A model's change between the arms over the (opponent, claim) cells both hold, as `pmiyc report
 * --compare` computes it (the same `ArmContrast`): values, `b - a` with its t interval over claims
 * and Holm-adjusted p, the claims and cells it rests on, and what it leaves out.
 */
interface ComparedModel extends Omit<ArmComparison, 'group' | 'measure' | 'model' | 'first' | 'second'> {
  readonly domain: Domain;
  readonly setting: Setting | null;
  readonly model: string;
  readonly role: 'persuader' | 'persuadee';
  readonly a: number;
  readonly b: number;
}

/** A model with data in one arm only (or in both, on no common cell): not compared. */
interface UncomparedModel {
  readonly domain: Domain;
  readonly setting: Setting | null;
  readonly model: string;
  readonly role: 'persuader' | 'persuadee';
  /** "a" or "b"; null when both arms have it, on no common (opponent, claim). */
  readonly onlyIn: string | null;
}

export interface ArmsCompared {
  readonly pairs: ComparedPair[];
  readonly models: ComparedModel[];
  readonly notCompared: UncomparedModel[];
  /** Per condition: the claims paired, and the claims and (pair, claim) cells held by one arm only. */
  readonly conditions: Array<{ domain: Domain; setting: Setting | null; claims: number; claimsLeftOut: number; cellsLeftOut: number }>;
}

/** The t intervals of the report's default; the viewer never resamples. */
const VIEW_INTERVALS: IntervalOptions = { ...DEFAULT_INTERVALS, replicates: 0 };

/**
 * Two arms side by side, on the design both hold: two whole runs condition by condition, or one
 * run's single-turn against its multi-turn conversations (`bySetting`). Reads each arm's per-(pair,
 * claim) totals once into an `ArmContrast`, the computation of the report's comparisons.
 */
export function compareArms(aTotals: Iterable<PairClaimTotal>, bTotals: Iterable<PairClaimTotal>, bySetting: boolean): ArmsCompared {
  const contrast = new ArmContrast(['a', 'b']);
  const groups = { subjective: { single: '', multi: '' }, misinformation: { single: '', multi: '' } };
  for (const domain of ['subjective', 'misinformation'] as const) {
    for (const setting of ['single', 'multi'] as const) groups[domain][setting] = bySetting ? domain : `${domain}/${setting}`;
  }
  for (const [arm, totals] of [
    [0, aTotals],
    [1, bTotals],
  ] as const) {
    for (const total of totals)
      contrast.addTotal(groups[total.domain][total.setting], arm, total.persuader, total.persuadee, total.claimKey, total.ncSum, total.completed);
  }
  const where = (group: string) => {
    const [domain, setting] = group.split('/') as [Domain, Setting | undefined];
    return { domain, setting: setting ?? null };
  };
  const roleOf = (measure: ArmComparison['measure']): ComparedModel['role'] => (measure === 'effectiveness' ? 'persuader' : 'persuadee');
  const { comparisons, uncompared, designs } = contrast.result(VIEW_INTERVALS);
  return {
    pairs: contrast
      .pairs()
      .map(({ group, first, second, firstCount, secondCount, ...pair }) => ({
        ...where(group),
        ...pair,
        a: first,
        b: second,
        aCompleted: firstCount,
        bCompleted: secondCount,
      }))
      .sort((x, y) => byCondition(x, y) || byName(x.persuader, y.persuader) || byName(x.persuadee, y.persuadee)),
    models: comparisons
      .map(({ group, measure, first, second, ...rest }) => ({ ...where(group), role: roleOf(measure), a: first, b: second, ...rest }))
      .sort(byModel),
    notCompared: uncompared.map(({ group, measure, model, onlyIn }) => ({ ...where(group), model, role: roleOf(measure), onlyIn })).sort(byModel),
    conditions: designs.map(({ group, ...rest }) => ({ ...where(group), ...rest })).sort(byCondition),
  };
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The run page's order: subjective before misinformation, single-turn before multi-turn. */
const byCondition = (a: { domain: Domain; setting: Setting | null }, b: { domain: Domain; setting: Setting | null }) =>
  byName(b.domain, a.domain) || byName(b.setting ?? '', a.setting ?? '');
const byModel = (a: { domain: Domain; setting: Setting | null; role: string; model: string }, b: typeof a) =>
  byCondition(a, b) || byName(b.role, a.role) || byName(a.model, b.model); // persuader (effectiveness) first

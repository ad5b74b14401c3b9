import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { holmAdjust } from '../intervals/holm.js';
import { keepMatchedSlots, slotsPerCell } from '../intervals/shared-slots.js';
import type { PairedTest } from './arm-comparisons.js';

/** The model and prompt variant an agent name stands for; null for a model under pmiyc's own prompts (`default`). */
export type VariantOf = (agent: string) => { readonly model: string; readonly variant: string } | null;

/** Agents without variants: every name is a model under the default prompts. */
export const NO_VARIANTS: VariantOf = () => null;

/**
 * A prompt variant against pmiyc's own prompts, in one role, domain and setting (report.json
 * `variants`): `model+variant` minus `model`, pooled over the models run under both (each counts
 * equally), over the (model, partner, claim) cells both hold: the same opponents and the same claims
 * on both sides, paired by claim. Its Holm family: the variant contrasts of the same role, domain and
 * setting (a family of their own).
 */
export interface VariantContrast extends PairedTest {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly variant: string;
  /** persuader: effectiveness; persuadee: susceptibility. */
  readonly role: 'persuader' | 'persuadee';
  readonly measure: 'effectiveness' | 'susceptibility';
  /** The models pooled: each run both as `model+variant` and as `model` in this role. */
  readonly models: string[];
  /** The pooled value under the variant, and under the default prompts, over the shared cells. */
  readonly variantValue: number;
  readonly defaultValue: number;
  /** variantValue - defaultValue. */
  readonly value: number;
}

const ROLES = [
  { role: 'persuader', measure: 'effectiveness', agentAt: 0 },
  { role: 'persuadee', measure: 'susceptibility', agentAt: 1 },
] as const;

/** A variant cell and its default counterpart, for one model. */
interface Match {
  readonly model: string;
  readonly partner: string;
  readonly variantCell: number;
  readonly defaultCell: number;
}

/**
 * Every variant against the default prompts in one domain and setting, from the condition's
 * per-(claim, pair) table (cells named `persuader\u0000persuadee`). Empty when no agent is a variant.
 */
export function variantContrasts(
  where: { readonly domain: Domain; readonly setting: Setting },
  table: ClaimCellTable,
  variantOf: VariantOf,
  options: IntervalOptions,
): VariantContrast[] {
  const pairs = table.cells.map((cell) => cell.split('\u0000') as [string, string]);
  return ROLES.flatMap(({ role, measure, agentAt }) => {
    const byVariant = new Map<string, Match[]>();
    pairs.forEach((pair, variantCell) => {
      const agent = variantOf(pair[agentAt]);
      if (agent === null) return;
      const partner = pair[1 - agentAt]!;
      const defaultCell = table.cellIndex(agentAt === 0 ? `${agent.model}\u0000${partner}` : `${partner}\u0000${agent.model}`);
      if (defaultCell === undefined) return;
      const matches = byVariant.get(agent.variant) ?? [];
      byVariant.set(agent.variant, matches);
      matches.push({ model: agent.model, partner, variantCell, defaultCell });
    });
    const contrasts = [...byVariant].flatMap(([variant, matches]) => {
      const contrast = pooledContrast(table, matches, options);
      return contrast ? [{ ...where, variant, role, measure, ...contrast }] : [];
    });
    const adjusted = holmAdjust(contrasts.map((contrast) => contrast.p));
    return contrasts.map((contrast, index) => ({ ...contrast, pHolm: adjusted[index]! }));
  });
}

/** One variant's contrast over the cells each match holds on both sides; undefined when no match shares a claim. */
function pooledContrast(table: ClaimCellTable, matches: readonly Match[], options: IntervalOptions) {
  const shared = keepMatchedSlots(
    table.slices(),
    matches.map((match) => [match.variantCell, match.defaultCell] as const),
  );
  const slots = slotsPerCell(shared);
  const paired = matches.filter((match) => slots[match.variantCell]! > 0);
  const models = [...new Set(paired.map((match) => match.model))].sort();
  if (models.length === 0) return undefined;
  // Each model's cells in partner order on both sides, so that equal data give exactly 0.
  const cellsOf = (model: string, side: 'variantCell' | 'defaultCell') =>
    paired
      .filter((match) => match.model === model)
      .sort((a, b) => (a.partner < b.partner ? -1 : a.partner > b.partner ? 1 : 0))
      .map((match) => match[side]);
  const term = (model: string, side: 'variantCell' | 'defaultCell', weight: number) => ({ cells: cellsOf(model, side), weight: weight / models.length });
  const statistics: CellStatistic[] = [
    models.map((model) => term(model, 'variantCell', 1)),
    models.map((model) => term(model, 'defaultCell', 1)),
    // Each model's two terms side by side: a model whose cells are equal adds exactly 0.
    models.flatMap((model) => [term(model, 'variantCell', 1), term(model, 'defaultCell', -1)]),
  ];
  const [variantValue, defaultValue, difference] = estimateOverClaims(shared, statistics, options);
  return {
    models,
    variantValue: variantValue!.value,
    defaultValue: defaultValue!.value,
    value: difference!.value,
    ciLow: Math.max(-2, difference!.ciLow),
    ciHigh: Math.min(2, difference!.ciHigh),
    se: difference!.se,
    claims: difference!.claims,
    cells: paired.reduce((total, match) => total + slots[match.variantCell]!, 0),
    thin: isThin(difference!),
    p: difference!.p,
  };
}

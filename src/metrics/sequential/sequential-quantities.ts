import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationScore } from '../../domain/conversation-record.js';
import type { SequentialQuantity } from './sequential-settling.js';

/**
 * What a sequential tournament settles (issue 30, docs/design/sequential.md), and what one claim
 * says of each: per domain and setting, each persuader's effectiveness and each persuadee's
 * susceptibility (estimates, when a precision is asked for) and the difference between every two
 * of them (comparisons). A claim's value for a model is its mean NC over the opponents it met on
 * the claim (repetitions averaged first), the quantity whose mean over claims the report estimates.
 */

type Role = 'persuader' | 'persuadee';

interface SequentialGroup {
  readonly domain: Domain;
  readonly setting: Setting;
}

export interface SequentialDesign {
  readonly persuaders: readonly string[];
  readonly persuadees: readonly string[];
  readonly groups: readonly SequentialGroup[];
  /** Estimates count only with a precision to reach (`--precision D`); comparisons always count. */
  readonly withEstimates: boolean;
}

export interface TournamentQuantity extends SequentialQuantity {
  readonly group: SequentialGroup;
  readonly role: Role;
  /** One model (an estimate) or two (a comparison: the first minus the second). */
  readonly models: readonly [string] | readonly [string, string];
}

const MEASURE: Record<Role, string> = { persuader: 'effectiveness', persuadee: 'susceptibility' };

function keyOf(group: SequentialGroup, role: Role, models: readonly string[]): string {
  return `${MEASURE[role]} ${group.domain}/${group.setting} ${models.join(' - ')}`;
}

/** Every quantity of the design, groups first, then role, then models in the order given. */
export function sequentialQuantities(design: SequentialDesign): TournamentQuantity[] {
  const quantities: TournamentQuantity[] = [];
  for (const group of design.groups) {
    for (const role of ['persuader', 'persuadee'] as const) {
      const models = role === 'persuader' ? design.persuaders : design.persuadees;
      models.forEach((first, index) => {
        if (design.withEstimates) quantities.push({ key: keyOf(group, role, [first]), kind: 'estimate', lower: -1, upper: 1, group, role, models: [first] });
        for (const second of models.slice(index + 1))
          quantities.push({ key: keyOf(group, role, [first, second]), kind: 'comparison', lower: -2, upper: 2, group, role, models: [first, second] });
      });
    }
  }
  return quantities;
}

/**
 * One claim's value of each quantity, from the claim's stored conversations (any order, any group).
 * A model's value needs a completed conversation with every opponent of the design on the claim:
 * one missing opponent would change whom it is averaged over, so the quantity skips the claim.
 */
export function claimQuantityValues(
  quantities: readonly TournamentQuantity[],
  design: Pick<SequentialDesign, 'persuaders' | 'persuadees'>,
  conversations: Iterable<Pick<ConversationScore, 'domain' | 'setting' | 'status' | 'persuader' | 'persuadee' | 'normalizedChange'>>,
): Map<string, number> {
  const pairs = new Map<string, { sum: number; count: number }>();
  for (const conversation of conversations) {
    if (conversation.status !== 'completed' || conversation.normalizedChange === null) continue;
    const key = `${conversation.domain}/${conversation.setting}|${conversation.persuader}|${conversation.persuadee}`;
    const cell = pairs.get(key) ?? { sum: 0, count: 0 };
    cell.sum += conversation.normalizedChange;
    cell.count += 1;
    pairs.set(key, cell);
  }
  const modelValue = (group: SequentialGroup, role: Role, model: string): number | undefined => {
    const opponents = role === 'persuader' ? design.persuadees : design.persuaders;
    let sum = 0;
    for (const opponent of opponents) {
      const [persuader, persuadee] = role === 'persuader' ? [model, opponent] : [opponent, model];
      const cell = pairs.get(`${group.domain}/${group.setting}|${persuader}|${persuadee}`);
      if (cell === undefined) return undefined;
      sum += cell.sum / cell.count;
    }
    return sum / opponents.length;
  };
  const values = new Map<string, number>();
  for (const quantity of quantities) {
    const [first, second] = quantity.models.map((model) => modelValue(quantity.group, quantity.role, model));
    if (first === undefined) continue;
    if (quantity.models.length === 1) values.set(quantity.key, first);
    else if (second !== undefined) values.set(quantity.key, first - second);
  }
  return values;
}

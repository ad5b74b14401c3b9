import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { PairCell } from '../studies/tournament/tournament-browse.js';

/** A model's effectiveness (as persuader) and susceptibility (as persuadee) in one condition, from pair means (SPEC 1.5). */
export interface ModelMeans {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly model: string;
  /** Mean over the persuadees it faced of its per-pair mean NC; null when it persuaded no one successfully. */
  readonly effectiveness: number | null;
  readonly susceptibility: number | null;
  /** How many pair means each mean is over. */
  readonly persuadees: number;
  readonly persuaders: number;
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Unweighted means of pair means per model and condition, as the report's point estimates are made. */
export function modelMeans(cells: readonly PairCell[]): ModelMeans[] {
  const groups = new Map<string, { domain: Domain; setting: Setting; model: string; asPersuader: number[]; asPersuadee: number[] }>();
  const groupOf = (cell: PairCell, model: string) => {
    const key = `${cell.domain}\u001f${cell.setting}\u001f${model}`;
    const group = groups.get(key) ?? { domain: cell.domain, setting: cell.setting, model, asPersuader: [], asPersuadee: [] };
    groups.set(key, group);
    return group;
  };
  for (const cell of cells) {
    const persuader = groupOf(cell, cell.persuader);
    const persuadee = groupOf(cell, cell.persuadee);
    if (cell.meanNc !== null) {
      persuader.asPersuader.push(cell.meanNc);
      persuadee.asPersuadee.push(cell.meanNc);
    }
  }
  return [...groups.values()]
    .map((group) => ({
      domain: group.domain,
      setting: group.setting,
      model: group.model,
      effectiveness: mean(group.asPersuader),
      susceptibility: mean(group.asPersuadee),
      persuadees: group.asPersuader.length,
      persuaders: group.asPersuadee.length,
    }))
    .sort((a, b) => b.domain.localeCompare(a.domain) || b.setting.localeCompare(a.setting) || a.model.localeCompare(b.model));
}

/** One side of a comparison: a run, or one setting of a run. */
export interface Arm {
  readonly run: string;
  readonly setting?: Setting;
}

/** The same pair (or model) in both arms: its values and `b - a`, null where either side has none. */
export interface ComparedPair {
  readonly domain: Domain;
  /** The condition when two runs are compared setting by setting; null when the arms are settings. */
  readonly setting: Setting | null;
  readonly persuader: string;
  readonly persuadee: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly difference: number | null;
  readonly aCompleted: number;
  readonly bCompleted: number;
}

export interface ComparedModel {
  readonly domain: Domain;
  readonly setting: Setting | null;
  readonly model: string;
  readonly role: 'persuader' | 'persuadee';
  readonly a: number | null;
  readonly b: number | null;
  readonly difference: number | null;
}

const difference = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

/**
 * Two arms side by side: the change of each pair's mean NC and of each model's effectiveness and
 * susceptibility. Arms that are settings are matched across settings (single against multi);
 * two whole runs are matched condition by condition. Pairs present in one arm only keep a null side.
 */
export function compareArms(aCells: readonly PairCell[], bCells: readonly PairCell[], bySetting: boolean): { pairs: ComparedPair[]; models: ComparedModel[] } {
  const conditionOf = (cell: { domain: Domain; setting: Setting }) => `${cell.domain}\u001f${bySetting ? '' : cell.setting}`;
  const pairKey = (cell: PairCell) => `${conditionOf(cell)}\u001f${cell.persuader}\u001f${cell.persuadee}`;
  const aByKey = new Map(aCells.map((cell) => [pairKey(cell), cell]));
  const bByKey = new Map(bCells.map((cell) => [pairKey(cell), cell]));
  const keys = [...new Set([...aByKey.keys(), ...bByKey.keys()])];
  const pairs = keys.map((key) => {
    const a = aByKey.get(key);
    const b = bByKey.get(key);
    const cell = (a ?? b)!;
    return {
      domain: cell.domain,
      setting: bySetting ? null : cell.setting,
      persuader: cell.persuader,
      persuadee: cell.persuadee,
      a: a?.meanNc ?? null,
      b: b?.meanNc ?? null,
      difference: difference(a?.meanNc ?? null, b?.meanNc ?? null),
      aCompleted: a?.completed ?? 0,
      bCompleted: b?.completed ?? 0,
    };
  });
  const modelKey = (entry: ModelMeans) => `${conditionOf(entry)}\u001f${entry.model}`;
  const aModels = new Map(modelMeans(aCells).map((entry) => [modelKey(entry), entry]));
  const bModels = new Map(modelMeans(bCells).map((entry) => [modelKey(entry), entry]));
  const models = [...new Set([...aModels.keys(), ...bModels.keys()])].flatMap((key) => {
    const a = aModels.get(key);
    const b = bModels.get(key);
    const entry = (a ?? b)!;
    return (['persuader', 'persuadee'] as const).map((role) => {
      const field = role === 'persuader' ? 'effectiveness' : 'susceptibility';
      const aValue = a?.[field] ?? null;
      const bValue = b?.[field] ?? null;
      return {
        domain: entry.domain,
        setting: bySetting ? null : entry.setting,
        model: entry.model,
        role,
        a: aValue,
        b: bValue,
        difference: difference(aValue, bValue),
      };
    });
  });
  return { pairs, models };
}

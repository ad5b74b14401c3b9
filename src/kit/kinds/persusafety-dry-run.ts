import { type PersusafetyRunDesign, persusafetyConstraintsOf, persusafetyTurnsOf } from '../../protocols/persusafety/run/persusafety-run-design.js';
import { persusafetyConditionWord } from '../../protocols/persusafety/run/persusafety-run-options.js';
import type { PersusafetyRunScene } from '../../protocols/persusafety/run/persusafety-run-scenes.js';

/**
 * `--dry-run` of a PersuSafety run: the plan, and the calls it may ask of each model (each conversation's task
 * probe, then at most its turns of persuader and persuadee, and one judge's call; a declined task, an early
 * acceptance or the fourth rejection ask fewer, re-asks of unusable replies more). Makes no call and no run.
 * Prices are not estimated for a protocol's run yet (the tournament's forecast is its own).
 */
export function persusafetyDryRunLines(prepared: {
  readonly design: PersusafetyRunDesign;
  readonly scenes: readonly PersusafetyRunScene[];
  readonly source: string;
}): string[] {
  const { design, scenes } = prepared;
  const perScene = design.profiles.length * design.conditions.length * design.repetitions;
  const calls = new Map<string, number>();
  const add = (model: string, count: number) => calls.set(model, (calls.get(model) ?? 0) + count);
  let conversations = 0;
  for (const { sceneSet } of scenes) {
    const each = perScene * persusafetyConstraintsOf(design, sceneSet).length;
    const turns = persusafetyTurnsOf(design, sceneSet);
    conversations += each * design.persuaders.length;
    for (const persuader of design.persuaders) add(persuader, each * (1 + turns));
    add(design.persuadee, each * design.persuaders.length * turns);
    add(design.judge, each * design.persuaders.length);
  }
  const sets = design.sceneSets.map((set) => `${scenes.filter((scene) => scene.sceneSet === set).length} ${set}`).join(' and ');
  const turns = design.turns === undefined ? "the benchmark's turns (15 on a harmful task, 10 on a neutral scene)" : `${design.turns} turns at most`;
  return [
    `PersuSafety run: ${design.persuaders.length} persuaders x ${sets} scenes (${prepared.source}) x ${design.profiles.length} profiles x profile ${design.conditions.map(persusafetyConditionWord).join(' and ')} x constraints ${design.constraints.join(', ')} (neutral scenes) x ${design.repetitions} repetitions = ${conversations} conversations, ${turns}, at temperature ${design.sampling.temperature}.`,
    'Calls, at most (a declined task, an acceptance or a fourth rejection ends a conversation sooner; re-asks of unusable replies come on top; calls stored by earlier runs are replayed for free):',
    ...[...calls].map(([model, count]) => `  ${model}: ${count}`),
    "Prices are not estimated for a protocol run yet: see each model's price in the config. Nothing was called.",
  ];
}

import { createHash } from 'node:crypto';
import { selectStratified } from '../../../datasets/select-claims.js';
import type { PersusafetyConstrainedScene, PersusafetyHarmfulTask } from '../persusafety-datasets.js';
import type { PersusafetyItems } from '../persusafety-datasets-recipe.js';
import type { PersusafetySceneSet } from '../persusafety-facts.js';
import type { PersusafetyScene } from '../persusafety-record.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';

/**
 * The scenes a run plays, as its records keep them: the harmful tasks and the neutral scenes with constraints,
 * each mapped onto the record's scene, selected as the design says.
 */

/** A scene of a run, with the set it is of. */
export interface PersusafetyRunScene {
  readonly sceneSet: PersusafetySceneSet;
  readonly scene: PersusafetyScene;
}

/**
 * A harmful task as a scene. The task file gives no separate instructions per side and no `fact` (the benchmark
 * wrote those for its runs with a model, in files it did not publish): both sides are given the background, the
 * persuader's detailed scenario (how it goes about the task, deceit included) is the true situation the persuadee
 * does not know and the judge is shown, and the persuadee plays its vulnerability.
 */
function persusafetySceneOfTask(task: PersusafetyHarmfulTask): PersusafetyScene {
  return {
    id: task.id,
    domain: task.subtopic,
    task: task.task,
    persuaderInstructions: task.background,
    persuadeeInstructions: task.background,
    fact: task.scenario,
    vulnerability: task.vulnerability,
    harmfulness: task.harmfulness,
  };
}

/** A neutral scene with constraints as a scene: its fields in full words, its position in the file its id (as the published results number it). */
function sceneOfConstrained(scene: PersusafetyConstrainedScene): PersusafetyScene {
  return {
    id: scene.index,
    domain: scene.domain,
    task: scene.task,
    persuaderInstructions: scene.persuaderInstructions,
    persuadeeInstructions: scene.persuadeeInstructions,
    fact: scene.fact,
    vulnerability: scene.vulnerability,
    resistance: scene.resistance,
    persuaderBenefit: scene.persuaderBenefit,
    persuaderPressure: scene.persuaderPressure,
  };
}

/**
 * The run's scenes, set by set in PERSUSAFETY_SCENE_SETS' order: of each set the first `limit`, or a seeded
 * `sample` stratified by harmfulness level (harmful tasks) or domain (neutral scenes), in file order.
 */
export function selectPersusafetyScenes(
  items: Pick<PersusafetyItems, 'harmfulTasks' | 'constrainedScenes'>,
  design: Pick<PersusafetyRunDesign, 'sceneSets' | 'selection'>,
  seed: number,
): PersusafetyRunScene[] {
  const selection = { ...design.selection, seed };
  const harmful = design.sceneSets.includes('harmful')
    ? selectStratified(items.harmfulTasks, selection, { of: (task) => task.harmfulness, seedName: 'persusafety-harmful-sample' })
    : [];
  const neutral = design.sceneSets.includes('neutral')
    ? selectStratified(items.constrainedScenes, selection, { of: (scene) => scene.domain, seedName: 'persusafety-neutral-sample' })
    : [];
  return [
    ...harmful.map((task): PersusafetyRunScene => ({ sceneSet: 'harmful', scene: persusafetySceneOfTask(task) })),
    ...neutral.map((scene): PersusafetyRunScene => ({ sceneSet: 'neutral', scene: sceneOfConstrained(scene) })),
  ];
}

/** A checksum of the scenes' content and order and of the profiles' descriptions: a resumed run must see the same. */
export function persusafetyScenesChecksum(scenes: readonly PersusafetyRunScene[], profiles: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const { sceneSet, scene } of scenes) hash.update(JSON.stringify([sceneSet, scene]));
  for (const [name, description] of profiles) hash.update(JSON.stringify([name, description]));
  return hash.digest('hex');
}

import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { decodeText } from '../datasets/decode-text.js';
import { InputError } from '../domain/errors/input-error.js';
import { readDataFileBytes } from '../io/read-text-file.js';
import { parseConstrainedScenes, parseHarmfulTasks, parsePersuadeeProfiles } from '../protocols/persusafety/persusafety-datasets.js';
import { readPersusafetyItems } from '../protocols/persusafety/persusafety-datasets-recipe.js';
import type { PersusafetyProfile } from '../protocols/persusafety/persusafety-facts.js';
import { PERSUSAFETY_FILES, PERSUSAFETY_SOURCE, type PersusafetyFileName } from '../protocols/persusafety/persusafety-facts.js';
import type { PersusafetyRunDesign } from '../protocols/persusafety/run/persusafety-run-design.js';
import { type PersusafetyRunScene, selectPersusafetyScenes } from '../protocols/persusafety/run/persusafety-run-scenes.js';
import { type CommandContext, dataOf } from './command-context.js';

/**
 * The scenes and profiles of a PersuSafety run, from where its design says: the benchmark's pinned files (through
 * their recipes, each checked by its sha256), or a folder of the user's own in the benchmark's format (`--dataset
 * DIR`, its files named as upstream), each file recorded with its sha256 when the run starts and refused on a
 * resume when it has changed.
 */

/** What a run plays: its scenes, selected, and the persuadee profiles' descriptions; and what they were read from, in words. */
export interface PersusafetyRunItems {
  readonly scenes: readonly PersusafetyRunScene[];
  readonly profiles: ReadonlyMap<PersusafetyProfile, string>;
  readonly source: string;
}

/** The files of the user's folder a run reads: the harmful tasks and neutral scenes of the sets it plays, and the persuadee profiles. */
function filesNeeded(sceneSets: PersusafetyRunDesign['sceneSets']): PersusafetyFileName[] {
  return [
    ...(sceneSets.includes('harmful') ? (['harmfulTasks'] as const) : []),
    ...(sceneSets.includes('neutral') ? (['constrainedScenes'] as const) : []),
    'persuadeeProfiles',
  ];
}

/** The files a run reads from a user's folder: each file's text and sha256, by the facts' name for it. */
export async function readDatasetFolder(
  folder: string,
  sceneSets: PersusafetyRunDesign['sceneSets'],
): Promise<Map<PersusafetyFileName, { text: string; sha256: string; path: string }>> {
  const files = new Map<PersusafetyFileName, { text: string; sha256: string; path: string }>();
  for (const name of filesNeeded(sceneSets)) {
    const path = join(folder, basename(PERSUSAFETY_FILES[name].path));
    const bytes = await readDataFileBytes(
      path,
      `${folder} has no ${basename(path)}: --dataset names a folder holding PersuSafety's dataset files, named as upstream`,
    );
    files.set(name, { text: decodeText(path, bytes), sha256: createHash('sha256').update(bytes).digest('hex'), path });
  }
  return files;
}

/** The items of a user's folder, each file checked against the sha256 the run recorded (a new run records what it reads). */
async function itemsOfFolder(source: Extract<PersusafetyRunDesign['dataset'], { kind: 'folder' }>, sceneSets: PersusafetyRunDesign['sceneSets']) {
  const files = await readDatasetFolder(source.path, sceneSets);
  for (const [name, file] of files) {
    const recorded = source.sha256[name];
    if (recorded !== undefined && recorded !== file.sha256)
      throw new InputError(`${file.path} has changed since the run started (sha256 ${file.sha256}, was ${recorded}): restore it, or start a new run`);
  }
  const text = (name: PersusafetyFileName) => files.get(name);
  const harmful = text('harmfulTasks');
  const constrained = text('constrainedScenes');
  const profiles = text('persuadeeProfiles')!;
  return {
    harmfulTasks: harmful ? parseHarmfulTasks(harmful.path, harmful.text) : [],
    constrainedScenes: constrained ? parseConstrainedScenes(constrained.path, constrained.text) : [],
    persuadeeProfiles: parsePersuadeeProfiles(profiles.path, profiles.text),
  };
}

/** A scene id given twice in one set would give two conversations one key: refused, naming the set and the id. */
function checkDistinctScenes(scenes: readonly PersusafetyRunScene[], source: string): void {
  const seen = new Set<string>();
  for (const { sceneSet, scene } of scenes) {
    const key = `${sceneSet}\u0000${scene.id}`;
    if (seen.has(key)) throw new InputError(`${source} has two ${sceneSet} scenes with the id ${scene.id}: give each scene its own id`);
    seen.add(key);
  }
}

/**
 * The run's scenes and profiles, read from where its design says (the pinned files from `dataDir`, a resume's
 * `--data-dir` when given: their sha256 is checked wherever they are read from) and selected as it says.
 */
export async function readPersusafetyRunItems(
  design: PersusafetyRunDesign,
  seed: number,
  context: CommandContext,
  dataDir?: string,
): Promise<PersusafetyRunItems> {
  const { dataset } = design;
  const items =
    dataset.kind === 'folder' ? await itemsOfFolder(dataset, design.sceneSets) : await readPersusafetyItems(dataOf(context).files(dataDir ?? dataset.dataDir));
  const source =
    dataset.kind === 'folder' ? dataset.path : `PersuSafety's dataset, ${PERSUSAFETY_SOURCE.repository} at ${PERSUSAFETY_SOURCE.commit.slice(0, 7)}`;
  const scenes = selectPersusafetyScenes(items, design, seed);
  if (scenes.length === 0) throw new InputError(`no scene of ${source} is selected: check --scenes, --limit and --sample`);
  checkDistinctScenes(scenes, source);
  return { scenes, profiles: items.persuadeeProfiles, source };
}

import { z } from 'zod';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import {
  PERSUSAFETY_HARMFULNESS_LEVELS,
  PERSUSAFETY_PERSUADEE_PROFILES,
  PERSUSAFETY_PERSUADER_PROFILES,
  type PersusafetyHarmfulness,
  type PersusafetyProfile,
} from './persusafety-facts.js';
import { parsedJson, readJsonItems, schemaRead } from './persusafety-json-items.js';

/** One of PersuSafety's harmful persuasion tasks (`harmful_scenarios_full.json`). */
export interface PersusafetyHarmfulTask {
  readonly id: number;
  readonly harmfulness: PersusafetyHarmfulness;
  readonly subtopic: string;
  /** What the persuader is asked to get the persuadee to do. */
  readonly task: string;
  readonly scenario: string;
  /** The persuadee's weak spot, as the scene gives it. */
  readonly vulnerability: string;
  readonly background: string;
}

/** One of the 67 neutral scenes (`persuasion_scenario_neutral.json`): who persuades whom of what, with no hidden fact. */
export interface PersusafetyNeutralScene {
  /** Its position in the file, from 0. */
  readonly index: number;
  readonly domain: string;
  readonly subdomain: string;
  readonly scene: string;
  readonly keywords: string;
  readonly background: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly task: string;
}

/**
 * One of the 30 neutral scenes with constraints (`persuasion_scenarios_neutral_constraints.json`): each side's
 * instructions, the true situation the judge is shown (`fact`), and what pushes the persuader (benefit, pressure).
 */
export interface PersusafetyConstrainedScene {
  /** Its position in the file, from 0 (the published results' `id` of the scene). */
  readonly index: number;
  readonly domain: string;
  readonly task: string;
  readonly persuaderInstructions: string;
  readonly persuadeeInstructions: string;
  readonly fact: string;
  readonly vulnerability: string;
  readonly resistance: string;
  readonly persuaderBenefit: string;
  readonly persuaderPressure: string;
}

const text = (field: string) => z.string({ error: `needs a "${field}" text field` }).refine((value) => value.trim() !== '', `the "${field}" field is empty`);

const harmfulTaskSchema = z.looseObject(
  {
    id: z.number({ error: 'needs a whole-number "id"' }).int('needs a whole-number "id"'),
    harmfulness_level: z.enum(PERSUSAFETY_HARMFULNESS_LEVELS, { error: `"harmfulness_level" must be one of ${PERSUSAFETY_HARMFULNESS_LEVELS.join(', ')}` }),
    subtopic: text('subtopic'),
    task: text('task'),
    detailed_scenario: text('detailed_scenario'),
    vulnerability: text('vulnerability'),
    background_situation: text('background_situation'),
  },
  { error: 'not a harmful task: an object with id, harmfulness_level, subtopic, task, detailed_scenario, vulnerability, background_situation' },
);

const neutralSceneSchema = z.looseObject(
  {
    domain: text('domain'),
    sub_domain: text('sub_domain'),
    high_level_scene: text('high_level_scene'),
    keywords: text('keywords'),
    background: text('background'),
    persuader: text('persuader'),
    persuadee: text('persuadee'),
    task: text('task'),
  },
  { error: 'not a neutral scene: an object with domain, sub_domain, high_level_scene, keywords, background, persuader, persuadee, task' },
);

const constrainedSceneSchema = z.looseObject(
  {
    domain: text('domain'),
    persuasion_task: text('persuasion_task'),
    persuader_prompt: text('persuader_prompt'),
    persuadee_prompt: text('persuadee_prompt'),
    fact: text('fact'),
    vulnerability: text('vulnerability'),
    resistance: text('resistance'),
    persuader_benefit: text('persuader_benefit'),
    persuader_pressure: text('persuader_pressure'),
  },
  {
    error:
      'not a scene: an object with domain, persuasion_task, persuader_prompt, persuadee_prompt, fact, vulnerability, resistance, persuader_benefit, persuader_pressure',
  },
);

/** Each item of a JSON array read by a schema into `read`'s shape, in order; every item that is not one is named by its index. */
function readItems<Item, Read>(file: string, content: string, what: string, schema: z.ZodType<Item>, read: (item: Item, index: number) => Read): Read[] {
  const wording = { what, unit: 'item', expected: `PersuSafety's ${what} file (a JSON array of them)` };
  return readJsonItems(file, content, wording, (value, index) => {
    const parsed = schemaRead(schema, value);
    return parsed.status === 'read' ? { status: 'read', item: read(parsed.item, index) } : parsed;
  });
}

/** The harmful tasks of a file in PersuSafety's format, in file order; a task that is not one is named by its index. */
export function parseHarmfulTasks(file: string, content: string): PersusafetyHarmfulTask[] {
  return readItems(file, content, 'harmful tasks', harmfulTaskSchema, (item) => ({
    id: item.id,
    harmfulness: item.harmfulness_level,
    subtopic: item.subtopic,
    task: item.task,
    scenario: item.detailed_scenario,
    vulnerability: item.vulnerability,
    background: item.background_situation,
  }));
}

/** The neutral scenes of a file in PersuSafety's format, in file order. */
export function parseNeutralScenes(file: string, content: string): PersusafetyNeutralScene[] {
  return readItems(file, content, 'neutral scenes', neutralSceneSchema, (item, index) => ({
    index,
    domain: item.domain,
    subdomain: item.sub_domain,
    scene: item.high_level_scene,
    keywords: item.keywords,
    background: item.background,
    persuader: item.persuader,
    persuadee: item.persuadee,
    task: item.task,
  }));
}

/** The scenes with constraints of a file in PersuSafety's format, in file order. */
export function parseConstrainedScenes(file: string, content: string): PersusafetyConstrainedScene[] {
  return readItems(file, content, 'scenes with constraints', constrainedSceneSchema, (item, index) => ({
    index,
    domain: item.domain,
    task: item.persuasion_task,
    persuaderInstructions: item.persuader_prompt,
    persuadeeInstructions: item.persuadee_prompt,
    fact: item.fact,
    vulnerability: item.vulnerability,
    resistance: item.resistance,
    persuaderBenefit: item.persuader_benefit,
    persuaderPressure: item.persuader_pressure,
  }));
}

/**
 * A profiles file (a JSON object from each profile's name to its description), read for exactly the names
 * PersuSafety has, in the facts' order: a name missing, another name, or an empty description is named.
 */
function parseProfiles<Name extends string>(file: string, content: string, names: readonly Name[], what: string): ReadonlyMap<Name, string> {
  const value = parsedJson(file, content, `PersuSafety's ${what} file (a JSON object of name: description)`);
  const parsed = z.record(z.string(), z.string()).safeParse(value);
  if (!parsed.success) throw new DatasetError({ file }, `is not a file of ${what}: that is a JSON object of name: description`, { fileIsSubject: true });
  const unknown = Object.keys(parsed.data).filter((name) => !(names as readonly string[]).includes(name));
  const missing = names.filter((name) => !Object.hasOwn(parsed.data, name));
  const empty = names.filter((name) => parsed.data[name]?.trim() === '');
  const problems = [
    ...unknown.map((name) => `${JSON.stringify(name)} is not one of PersuSafety's ${what}: the names are ${names.join(', ')}`),
    ...missing.map((name) => `has no ${what.replace(/s$/, '')} ${JSON.stringify(name)}`),
    ...empty.map((name) => `the ${what.replace(/s$/, '')} ${JSON.stringify(name)} is empty`),
  ];
  const [first, ...others] = problems.map((detail) => ({ file, detail }));
  if (first) throw new DatasetError(first, first.detail, { others });
  return new Map(names.map((name) => [name, parsed.data[name]!]));
}

/** The five persuadee profiles' descriptions, by name. */
export function parsePersuadeeProfiles(file: string, content: string): ReadonlyMap<PersusafetyProfile, string> {
  return parseProfiles(file, content, PERSUSAFETY_PERSUADEE_PROFILES, 'persuadee profiles');
}

/** The three persuader personalities' descriptions, by name. */
export function parsePersuaderProfiles(file: string, content: string): ReadonlyMap<(typeof PERSUSAFETY_PERSUADER_PROFILES)[number], string> {
  return parseProfiles(file, content, PERSUSAFETY_PERSUADER_PROFILES, 'persuader profiles');
}

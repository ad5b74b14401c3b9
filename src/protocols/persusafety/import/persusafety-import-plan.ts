import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { InputError } from '../../../domain/errors/input-error.js';
import type { PersusafetyFilePlace } from '../persusafety-design.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_PROFILE_CONDITIONS, type PersusafetyCondition, type PersusafetyProfile } from '../persusafety-facts.js';
import { persusafetyItemKey } from '../persusafety-record.js';
import { type PublishedConversation, parsePublishedResults } from './persusafety-published.js';

/** A results file to import: read when asked (twice: once to check everything, once to store), with the sha256 of its bytes. */
export interface PersusafetySource {
  /** The file's absolute path: in messages, and stored with every conversation read from it. */
  readonly path: string;
  read(): Promise<{ readonly text: string; readonly sha256: string }>;
}

/** What the user asked for (`pmiyc import persusafety`): the run, and what a file's path does not say (or should say otherwise). */
export interface PersusafetyImportRequest {
  readonly run: string;
  readonly persuader?: string;
  readonly study?: string;
  readonly condition?: PersusafetyCondition;
  readonly profile?: PersusafetyProfile;
}

/** A results file checked: where it is, its sha256, what its conversations are, how many it holds. */
export interface PlannedPersusafetyFile {
  readonly path: string;
  readonly sha256: string;
  readonly place: PersusafetyFilePlace;
  readonly records: number;
}

/** Every file checked before a store is opened. */
export interface PersusafetyImportPlan {
  readonly request: PersusafetyImportRequest;
  readonly files: readonly PlannedPersusafetyFile[];
  readonly conversations: number;
}

/** What a path in PersuSafety's layout says, each part where it says it (the profile as the file's name spells it). */
interface PathHints {
  readonly persuader?: string;
  readonly study?: string;
  readonly condition?: PersusafetyCondition;
  readonly persuaderProfile?: string;
  readonly profileName?: string;
}

const LAYOUT = '<persuader>/<study>_<visible|invisible>/scores/<persuader profile>__<profile>.json';

/** What a results file's path says of its conversations, in PersuSafety's layout: `results/claude/ethical_personality_visible/scores/default__Anxious.json`. */
function pathHints(path: string): PathHints {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  const named = /^(.+?)__(.+)\.json$/.exec(parts.at(-1) ?? '');
  const fromName = named ? { persuaderProfile: named[1]!, profileName: named[2]! } : {};
  if (parts.at(-2) !== 'scores') return fromName;
  const studyFolder = new RegExp(`^(.+)_(${PERSUSAFETY_PROFILE_CONDITIONS.join('|')})$`).exec(parts.at(-3) ?? '');
  if (!studyFolder) return fromName;
  const persuader = parts.at(-4);
  const condition = PERSUSAFETY_PROFILE_CONDITIONS.find((known) => known === studyFolder[2]);
  return {
    ...fromName,
    study: studyFolder[1]!,
    ...(condition === undefined ? {} : { condition }),
    ...(persuader === undefined ? {} : { persuader }),
  };
}

function isProfile(name: string): name is PersusafetyProfile {
  return (PERSUSAFETY_PERSUADEE_PROFILES as readonly string[]).includes(name);
}

/**
 * What a file's conversations are: each part from the flag given, else from the file's path; a part neither
 * says is an InputError naming the file and the flags to give, and a profile the file's name spells otherwise
 * than PersuSafety's five is named.
 */
function placeOfFile(path: string, request: PersusafetyImportRequest): PersusafetyFilePlace {
  const hints = pathHints(path);
  const namedProfile = hints.profileName;
  if (request.profile === undefined && namedProfile !== undefined && !isProfile(namedProfile))
    throw new InputError(
      `${path} is named for the profile ${JSON.stringify(namedProfile)}, which is not one of PersuSafety's (${PERSUSAFETY_PERSUADEE_PROFILES.join(', ')}): give --profile`,
    );
  const { persuader = hints.persuader, study = hints.study, condition = hints.condition } = request;
  const profile = request.profile ?? (namedProfile !== undefined && isProfile(namedProfile) ? namedProfile : undefined);
  if (persuader === undefined || study === undefined || condition === undefined || profile === undefined) {
    const given = { '--persuader': persuader, '--study': study, '--condition': condition, '--profile': profile };
    const missing = Object.entries(given).flatMap(([flag, value]) => (value === undefined ? [flag] : []));
    throw new InputError(`${path} does not say whose conversations it holds (its path is not PersuSafety's ${LAYOUT}): give ${missing.join(', ')}`);
  }
  return { persuader, study, condition, ...(hints.persuaderProfile === undefined ? {} : { persuaderProfile: hints.persuaderProfile }), profile };
}

/** A conversation's key in the run, of a file's place. */
export function publishedItemKey(place: PersusafetyFilePlace, conversation: PublishedConversation): string {
  return persusafetyItemKey({ ...place, scene: conversation.scene });
}

/**
 * The first pass: reads every file, checks every record (a malformed one is a DatasetError naming its file and
 * index) and what each file is, and refuses two different conversations under one key (the same scene, profile
 * and condition of one persuader and study) among the files. Nothing is stored; the records are not kept.
 */
export async function planPersusafetyImport(sources: readonly PersusafetySource[], request: PersusafetyImportRequest): Promise<PersusafetyImportPlan> {
  const files: PlannedPersusafetyFile[] = [];
  const seen = new Map<string, { readonly file: string; readonly recordIndex: number; readonly recordSha256: string }>();
  for (const source of sources) {
    const place = placeOfFile(source.path, request);
    const { text, sha256 } = await source.read();
    const conversations = parsePublishedResults(source.path, text);
    for (const conversation of conversations) {
      const key = publishedItemKey(place, conversation);
      const earlier = seen.get(key);
      if (earlier !== undefined && earlier.recordSha256 !== conversation.recordSha256)
        throw new DatasetError(
          { file: source.path },
          `record ${conversation.recordIndex}: it is ${key}, as is record ${earlier.recordIndex} of ${earlier.file}, with another conversation: import the two files into different runs`,
        );
      if (earlier === undefined) seen.set(key, { file: source.path, recordIndex: conversation.recordIndex, recordSha256: conversation.recordSha256 });
    }
    files.push({ path: source.path, sha256, place, records: conversations.length });
  }
  return { request, files, conversations: files.reduce((sum, file) => sum + file.records, 0) };
}

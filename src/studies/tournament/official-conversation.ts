import type { OfficialEntry, OfficialRecord } from '../../datasets/official-results.js';
import { type AgreementScore, MAX_AGREEMENT } from '../../domain/agreement-score.js';
import { type Claim, claimKey, type Domain } from '../../domain/claim.js';
import { MULTI_TURN_TURNS, type Setting, settingOfTurns, type Turn, type TurnKind } from '../../domain/conversation.js';
import { type ConversationRecord, disputedScoresOf, type ReadingDifference } from '../../domain/conversation-record.js';
import { hashString } from '../../domain/random.js';
import { absoluteChange, normalizedChange } from '../../metrics/normalized-change.js';
import type { LabelMatch } from '../../protocol/agreement-label.js';
import { parseTaggedReply } from '../../protocol/tagged-reply.js';

/** What a folder of the official code's `experiments/` tree says: `multi_turn_subj` is multi-turn and subjective. */
export interface FolderHints {
  readonly setting?: Setting;
  readonly domain?: Domain;
  /** The folder that says so, for messages. */
  readonly folder?: string;
}

const EXPERIMENT_FOLDER = /^(single|multi)[_-]?turns?(?:[_-](subj(?:ective)?|misinfo(?:rmation)?))?$/i;

/** The nearest folder above a results file named like the official code's experiment folders, if any. */
export function folderHints(path: string): FolderHints {
  const folders = path.split(/[\\/]/).slice(0, -1).reverse();
  for (const folder of folders) {
    const match = EXPERIMENT_FOLDER.exec(folder);
    if (!match) continue;
    const setting: Setting = match[1]!.toLowerCase() === 'single' ? 'single' : 'multi';
    const domain: Domain | undefined = match[2] === undefined ? undefined : match[2].toLowerCase().startsWith('subj') ? 'subjective' : 'misinformation';
    return { setting, folder, ...(domain ? { domain } : {}) };
  }
  return {};
}

/** True when the persuadee's final decision directly follows its own reply of 5: the conversation stopped early. */
export function stoppedEarly(entries: readonly OfficialEntry[]): boolean {
  const beforeFinal = entries.at(-2);
  return beforeFinal?.role === 'persuadee' && beforeFinal.score === MAX_AGREEMENT;
}

/**
 * The planned turns t of a record: its length when it ran to the end; after an early stop the
 * length its file's full conversations have (the paper's 9 when none ran to the end), never less
 * than it ran.
 */
export function plannedTurns(entries: readonly OfficialEntry[], fullLength: number | undefined): number {
  if (!stoppedEarly(entries)) return entries.length;
  const ran = entries.length % 2 === 0 ? entries.length + 1 : entries.length;
  return Math.max(fullLength ?? MULTI_TURN_TURNS, ran);
}

/** Which setting a record's planned turns make, checked against what the user or the folder said. */
export function settingOf(turns: number, expected: { readonly setting?: Setting; readonly source?: string }): Setting | { readonly detail: string } {
  const setting = settingOfTurns(turns);
  if (expected.setting === undefined || expected.setting === setting) return setting;
  return {
    detail: `its ${turns} turns make a ${setting}-turn conversation, but ${expected.source} says ${expected.setting}-turn (a single-turn conversation has 3 turns)`,
  };
}

/**
 * An imported conversation's id, from what it is (models, claim, every entry's role, score, message
 * and reply), never from where it was read: the same record imported again, from a copy or from a
 * results.json the official code has appended to since, has the same id and is stored once.
 */
export function importedConversationId(record: OfficialRecord, domain: Domain): string {
  const parts = [
    'pmiyc-official',
    record.persuader,
    record.persuadee,
    claimKey({ domain, claim: record.claim, ...(record.question === null ? {} : { question: record.question }) }),
    ...record.entries.flatMap((entry) => [entry.role, String(entry.score), entry.message, entry.reply]),
  ];
  return `c${hashString(parts.join('\u001f')).toString(36).padStart(11, '0')}`;
}

/** The turns whose reply pmiyc's parser (with `labelMatch`) reads differently from the recorded score. */
function readingDifferences(entries: readonly OfficialEntry[], labelMatch: LabelMatch): ReadingDifference[] {
  const differences: ReadingDifference[] = [];
  entries.forEach((entry, position) => {
    const recordedScore = entry.score as AgreementScore;
    const reading = parseTaggedReply(entry.reply, { labelMatch });
    if (!reading.ok) differences.push({ turn: position + 1, recordedScore, readScore: null, detail: reading.detail });
    else if (reading.score !== recordedScore) differences.push({ turn: position + 1, recordedScore, readScore: reading.score, detail: null });
  });
  return differences;
}

function kindAt(position: number, entries: readonly OfficialEntry[]): TurnKind {
  if (position === 0) return 'opening';
  if (position === entries.length - 1) return 'final';
  return entries[position]!.role === 'persuader' ? 'argument' : 'reply';
}

/**
 * The record's entries as turns: numbered as they happened from 1, the recorded message and score,
 * and the reply as the official code kept it, as the turn's one accepted attempt (the file keeps
 * no other attempts and no seeds: the seed is null).
 */
function turnsOf(entries: readonly OfficialEntry[]): Turn[] {
  return entries.map((entry, position) => ({
    index: position + 1,
    role: entry.role,
    kind: kindAt(position, entries),
    message: entry.message,
    score: entry.score as AgreementScore,
    raw: entry.reply,
    attempts: [{ number: 1, seed: null, raw: entry.reply, outcome: 'accepted' }],
  }));
}

/** Where an imported record goes: everything about it that the record alone does not say. */
export interface ImportPlacement {
  readonly run: string;
  readonly conversationId: string;
  readonly claim: Claim;
  readonly setting: Setting;
  readonly turnsPlanned: number;
  readonly repetition: number;
  /** The persuader model's own opening score on the claim, when the import holds one. */
  readonly persuaderStance: AgreementScore | null;
  readonly file: string;
  readonly sha256: string;
  readonly labelMatch: LabelMatch;
}

/**
 * An official record as a pmiyc conversation record: scores as the file recorded them, the
 * persuadee's first score as the initial one and its last (the final decision) as the final one,
 * NC by pmiyc's formula, the replies pmiyc's parser reads differently listed, and which of the two
 * scores rest on such a reply.
 */
export function toImportedRecord(record: OfficialRecord, placement: ImportPlacement): ConversationRecord {
  const turns = turnsOf(record.entries);
  const initialScore = turns[0]!.score;
  const finalScore = turns.at(-1)!.score;
  const { claim } = placement;
  const differences = readingDifferences(record.entries, placement.labelMatch);
  return {
    run: placement.run,
    conversationId: placement.conversationId,
    domain: claim.domain,
    setting: placement.setting,
    turnsPlanned: placement.turnsPlanned,
    repetition: placement.repetition,
    runSeed: null,
    claimIndex: claim.index,
    claim: claim.claim,
    question: claim.question ?? null,
    origin: claim.origin,
    license: claim.license,
    persuader: record.persuader,
    persuadee: record.persuadee,
    simulated: { persuader: false, persuadee: false },
    status: 'completed',
    failureReason: null,
    failureDetail: null,
    failedTurn: null,
    failedRole: null,
    failedAttempts: [],
    earlyStopped: stoppedEarly(record.entries),
    initialScore,
    finalScore,
    normalizedChange: normalizedChange(initialScore, finalScore),
    absoluteChange: absoluteChange(initialScore, finalScore),
    persuaderStance: placement.persuaderStance,
    turns,
    imported: {
      format: 'pmiyc-official',
      file: placement.file,
      sha256: placement.sha256,
      recordIndex: record.recordIndex,
      claimNumber: record.claimNumber,
      labelMatch: placement.labelMatch,
      differences,
      disputedScores: disputedScoresOf(turns, differences),
    },
  };
}

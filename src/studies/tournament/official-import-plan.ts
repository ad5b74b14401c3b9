import { type OfficialRecord, parseOfficialResults, type SkipReason } from '../../datasets/official-results.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { type Claim, claimKey, type Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { LabelMatch } from '../../protocol/agreement-label.js';
import { type FolderHints, folderHints, plannedTurns, settingOf, stoppedEarly } from './official-conversation.js';

/** A results file to import: read when asked (twice: once to check everything, once to store). */
export interface OfficialSource {
  /** The file's absolute path: in messages, and stored with every conversation read from it. */
  readonly path: string;
  read(): Promise<{ readonly text: string; readonly sha256: string }>;
}

/** What the user asked for (`pmiyc import official`). */
export interface OfficialImportRequest {
  readonly run: string;
  /** The setting the files were run in; checked against each conversation's length (default: from the folder name, else the length). */
  readonly setting?: Setting;
  /** The claims' domain (default: from the folder name, else misinformation when a record has a question). */
  readonly domain?: Domain;
  readonly labelMatch: LabelMatch;
}

/** A claim as the records give it, before it is matched to a known set. */
export interface ClaimSeen {
  readonly domain: Domain;
  readonly claim: string;
  readonly question: string | null;
  /** The first record's `i` for it. */
  readonly claimNumber: number | null;
}

export interface PlannedFile {
  readonly path: string;
  readonly sha256: string;
  readonly records: number;
  readonly skipped: ReadonlyMap<SkipReason, number>;
  readonly hints: FolderHints;
  /** The length of the file's conversations that ran to the end (the longest, if they differ). */
  readonly fullLength: number | undefined;
}

/** Everything the files say, checked, before a store is opened: what the second pass needs besides the records. */
export interface OfficialImportPlan {
  readonly request: OfficialImportRequest;
  readonly files: readonly PlannedFile[];
  /** Distinct claims in the order first seen, by claim key. */
  readonly claims: ReadonlyMap<string, ClaimSeen>;
  /** The persuadee's opening score per (model, claim key): a persuader's own stance (SPEC 1.4). */
  readonly openings: ReadonlyMap<string, AgreementScore>;
  readonly importable: number;
}

export const openingKey = (model: string, key: string) => `${model}\u0000${key}`;

export function recordClaimKeyOf(record: OfficialRecord, domain: Domain): string {
  return claimKey({ domain, claim: record.claim, ...(record.question === null ? {} : { question: record.question }) });
}

/** The record's domain: what the user or the folder says, checked against whether the record has a question. */
export function domainOf(record: OfficialRecord, request: OfficialImportRequest, hints: FolderHints, file: string): Domain {
  const expected = request.domain ?? hints.domain;
  if (record.question === null) return expected ?? 'subjective';
  if (expected === 'subjective') {
    const source = request.domain ? '--domain subjective' : `the folder ${hints.folder}`;
    throw new DatasetError({ file }, `record ${record.recordIndex}: it has a question, so it is a misinformation conversation, but ${source} says subjective`);
  }
  return 'misinformation';
}

/** The setting a record was run in, as its planned turns make it; a DatasetError when the user or the folder says otherwise. */
export function checkedSetting(record: OfficialRecord, file: PlannedFile, request: OfficialImportRequest): { setting: Setting; turnsPlanned: number } {
  const turnsPlanned = plannedTurns(record.entries, file.fullLength);
  const expected =
    request.setting !== undefined
      ? { setting: request.setting, source: `--setting ${request.setting}` }
      : file.hints.setting !== undefined
        ? { setting: file.hints.setting, source: `the folder ${file.hints.folder}` }
        : {};
  const setting = settingOf(turnsPlanned, expected);
  if (typeof setting === 'object') throw new DatasetError({ file: file.path }, `record ${record.recordIndex}: ${setting.detail}`);
  return { setting, turnsPlanned };
}

/**
 * The first pass: reads every file, checks every record (a malformed one is a DatasetError naming
 * its file and index) and collects the claims, the openings and each file's full length. Nothing is
 * stored; the records are not kept.
 */
export async function planOfficialImport(sources: readonly OfficialSource[], request: OfficialImportRequest): Promise<OfficialImportPlan> {
  const files: PlannedFile[] = [];
  const claims = new Map<string, ClaimSeen>();
  const openings = new Map<string, AgreementScore>();
  let importable = 0;
  for (const source of sources) {
    const { text, sha256 } = await source.read();
    const { records, skipped } = parseOfficialResults(source.path, text);
    const lengths = records.filter((record) => !stoppedEarly(record.entries)).map((record) => record.entries.length);
    const skippedByReason = new Map<SkipReason, number>();
    for (const { reason } of skipped) skippedByReason.set(reason, (skippedByReason.get(reason) ?? 0) + 1);
    const file: PlannedFile = {
      path: source.path,
      sha256,
      records: records.length + skipped.length,
      skipped: skippedByReason,
      hints: folderHints(source.path),
      fullLength: lengths.length > 0 ? Math.max(...lengths) : undefined,
    };
    for (const record of records) {
      const domain = domainOf(record, request, file.hints, file.path);
      checkedSetting(record, file, request);
      const key = recordClaimKeyOf(record, domain);
      if (!claims.has(key)) claims.set(key, { domain, claim: record.claim, question: record.question, claimNumber: record.claimNumber });
      const opening = openingKey(record.persuadee, key);
      if (!openings.has(opening)) openings.set(opening, record.entries[0]!.score as AgreementScore);
    }
    importable += records.length;
    files.push(file);
  }
  if (importable === 0) {
    const total = files.reduce((sum, file) => sum + file.records, 0);
    throw new InputError(
      total === 0 ? 'the results files hold no records: nothing to import' : `none of the ${total} records has every score: nothing to import`,
    );
  }
  return { request, files, claims, openings, importable };
}

/** A run's claims as already stored, by claim key, and the indexes each domain uses. */
export interface StoredClaims {
  readonly byKey: ReadonlyMap<string, Claim>;
  readonly usedByDomain: ReadonlyMap<Domain, ReadonlySet<number>>;
}

/**
 * Each claim of the import as a pmiyc claim: as the run already stores it; else the known set's
 * item (its index, origin, licence) when the claim is in one; else origin `imported`, under the
 * record's `i` when no other claim of the run uses that index, or under the next free index. Known
 * claims are placed before imported ones, so that an imported claim never takes a known one's index.
 */
export function placeClaims(
  claims: ReadonlyMap<string, ClaimSeen>,
  stored: StoredClaims,
  findKnown: (claim: ClaimSeen) => Claim | undefined,
): Map<string, Claim> {
  const placed = new Map<string, Claim>();
  const taken = new Map<Domain, Set<number>>();
  const takenIn = (domain: Domain) => taken.get(domain) ?? taken.set(domain, new Set(stored.usedByDomain.get(domain))).get(domain)!;
  const pending: Array<[string, ClaimSeen]> = [];
  for (const [key, seen] of claims) {
    const claim = stored.byKey.get(key) ?? findKnown(seen);
    if (claim === undefined) pending.push([key, seen]);
    else {
      placed.set(key, claim);
      takenIn(seen.domain).add(claim.index);
    }
  }
  const next = new Map<Domain, number>();
  for (const [key, seen] of pending) {
    const used = takenIn(seen.domain);
    const wanted = seen.claimNumber;
    let index: number;
    if (wanted !== null && wanted >= 0 && !used.has(wanted)) index = wanted;
    else {
      index = next.get(seen.domain) ?? (used.size === 0 ? 0 : Math.max(...used) + 1);
      while (used.has(index)) index += 1;
    }
    used.add(index);
    next.set(seen.domain, Math.max(next.get(seen.domain) ?? 0, index + 1));
    placed.set(key, {
      index,
      domain: seen.domain,
      claim: seen.claim,
      ...(seen.question === null ? {} : { question: seen.question }),
      origin: 'imported',
      license: 'unknown (imported)',
    });
  }
  return placed;
}

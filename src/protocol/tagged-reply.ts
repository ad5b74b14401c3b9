import { type AgreementScore, agreementLabel } from '../domain/agreement-score.js';
import { type LabelMatch, readAgreementLabel } from './agreement-label.js';
import { guardedRead } from './guarded-read.js';

/**
 * The result of reading one agent reply. The raw text is always kept: a parsed reply is never
 * stored without the words it came from.
 */
export type ParsedReply =
  | {
      readonly ok: true;
      readonly raw: string;
      readonly message: string;
      readonly score: AgreementScore;
      readonly rankingText: string;
    }
  | {
      readonly ok: false;
      readonly raw: string;
      readonly problem: 'format' | 'refusal';
      readonly detail: string;
    };

const MESSAGE_OPEN = /<\s*message\s*>/i;
const MESSAGE_CLOSE = /<\s*\/\s*message\s*>/i;
const RANKING_OPEN = /<\s*support[_\s-]?ranking\s*>/i;
const RANKING_CLOSE = /<\s*\/\s*support[_\s-]?ranking\s*>/i;
// No two neighbouring parts may match the same spaces: "<" and a long run of spaces would otherwise be
// tried in every split of the run (a reply built to hang the reader).
const ANY_TAG = /<\s*(?:\/\s*)?[a-z_]+\s*>/i;

/** Phrases of a model declining the task, looked for only when a reply has no tags at all (or, for a stance, no label alone). */
export const REFUSAL =
  /\b(i\s+(?:can(?:'|’)?t|cannot|can not|won(?:'|’)t|will not|must decline|am unable|am not able|'m unable|'m not able)|i(?:'|’)m sorry|as an ai)\b/i;

interface Span {
  readonly start: number;
  readonly end: number;
}

function findFrom(pattern: RegExp, text: string, from: number): Span | undefined {
  const match = pattern.exec(text.slice(from));
  return match ? { start: from + match.index, end: from + match.index + match[0].length } : undefined;
}

function readMessage(raw: string, open: Span, rankingOpen: Span | undefined): string {
  const close = findFrom(MESSAGE_CLOSE, raw, open.end);
  const candidates = [close?.start, rankingOpen && rankingOpen.start > open.end ? rankingOpen.start : undefined, raw.length];
  const end = Math.min(...candidates.filter((position): position is number => position !== undefined));
  return raw.slice(open.end, end).trim();
}

function readRankingText(raw: string, open: Span): string {
  const close = findFrom(RANKING_CLOSE, raw, open.end);
  if (close) return raw.slice(open.end, close.start);
  // No closing tag: take the first non-empty line, stopping at any other tag.
  const rest = raw.slice(open.end);
  const nextTag = ANY_TAG.exec(rest);
  const untilTag = nextTag ? rest.slice(0, nextTag.index) : rest;
  return untilTag.split('\n').find((line) => line.trim() !== '') ?? '';
}

function unusable(raw: string, problem: 'format' | 'refusal', detail: string): ParsedReply {
  return { ok: false, raw, problem, detail };
}

/**
 * Reads a reply in the tagged wire format (SPEC 1.2). Tolerant of a missing closing tag,
 * whitespace, case, markdown and prose around the tags; explicit about everything it rejects.
 * `labelMatch` says how the ranking is read (strict unless given: see `LabelMatch`).
 */
export function parseTaggedReply(raw: string, options: { readonly labelMatch?: LabelMatch } = {}): ParsedReply {
  return guardedRead(raw, (text) => readTaggedReply(text, options.labelMatch));
}

function readTaggedReply(raw: string, labelMatch: LabelMatch | undefined): ParsedReply {
  if (raw.trim() === '') return unusable(raw, 'format', 'the reply is empty');
  const messageOpen = findFrom(MESSAGE_OPEN, raw, 0);
  const rankingOpen = findFrom(RANKING_OPEN, raw, messageOpen?.end ?? 0) ?? findFrom(RANKING_OPEN, raw, 0);

  if (!messageOpen && !rankingOpen) {
    if (REFUSAL.test(raw)) return unusable(raw, 'refusal', 'the model declined and wrote no tags');
    return unusable(raw, 'format', 'the reply has neither <message> nor <support_ranking> tags');
  }
  if (!messageOpen) return unusable(raw, 'format', 'the reply has no <message> tag');
  if (!rankingOpen) return unusable(raw, 'format', 'the reply has no <support_ranking> tag');

  const message = readMessage(raw, messageOpen, rankingOpen);
  if (message === '') return unusable(raw, 'format', 'the <message> is empty');

  const rankingText = readRankingText(raw, rankingOpen);
  const reading = readAgreementLabel(rankingText, labelMatch);
  if (!reading.ok) return unusable(raw, 'format', reading.detail);
  return { ok: true, raw, message, score: reading.score, rankingText: rankingText.trim() };
}

/** An agent's own earlier turn as it re-enters its history: re-serialised from parsed fields. */
export function formatTaggedReply(message: string, score: AgreementScore): string {
  return `<message>${message}</message>\n<support_ranking>${agreementLabel(score)}</support_ranking>`;
}

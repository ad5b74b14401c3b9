import type { AgreementScore } from '../domain/agreement-score.js';
import { readAgreementLabel } from './agreement-label.js';
import { guardedRead } from './guarded-read.js';
import { REFUSAL } from './tagged-reply.js';

/** One stance reply read: the score, or why it cannot be used. The raw text is always kept. */
export type StanceReply =
  | { readonly ok: true; readonly raw: string; readonly score: AgreementScore }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format' | 'refusal'; readonly detail: string };

/**
 * Words a bare answer may hold: the labels' own words and the names the label reader already
 * skips ("Ranking: Support", "4 out of 5"). Any other word means the model said more than a label.
 */
const LABEL_WORDS = new Set([
  'completely',
  'support',
  'oppose',
  'neutral',
  'my',
  'final',
  'current',
  'ranking',
  'rating',
  'score',
  'agreement',
  'stance',
  'out',
  'of',
]);

/**
 * Tags a model may wrap its label in out of habit (`<support_ranking>Support</support_ranking>`).
 * No two neighbouring parts match the same spaces: "<" and a run of spaces would otherwise be tried
 * in every split of the run, a time that grows with the run's length cubed.
 */
const ANY_TAG = /<\s*(?:\/\s*)?[a-z_][a-z_\s]*>/gi;

function unusable(raw: string, problem: 'format' | 'refusal', detail: string): StanceReply {
  return { ok: false, raw, problem, detail };
}

const excerpt = (text: string) => text.replace(/\s+/g, ' ').slice(0, 60);

/**
 * Reads a reply to the stance question, which should be one of the five labels alone. Tolerant
 * in the ways the tagged parser is (case, markdown emphasis, a trailing period, a bare digit 1-5,
 * "Support (4)", stray tags), but it never looks for a label inside prose: "I support this" and
 * "Support, though not strongly" are unusable, because reading them would be guessing.
 */
export function parseStanceReply(raw: string): StanceReply {
  return guardedRead(raw, readStanceReply);
}

function readStanceReply(raw: string): StanceReply {
  const text = raw.replace(ANY_TAG, ' ').trim();
  if (text === '') return unusable(raw, 'format', 'the reply is empty');
  const otherWords = (text.toLowerCase().match(/[a-z']+/g) ?? []).filter((word) => !LABEL_WORDS.has(word));
  if (otherWords.length > 0) {
    if (REFUSAL.test(text)) return unusable(raw, 'refusal', 'the model declined to give a stance');
    return unusable(raw, 'format', `the reply is not a label alone: "${excerpt(text)}"`);
  }
  if (text.split('\n').filter((line) => line.trim() !== '').length > 1) {
    return unusable(raw, 'format', `the reply spans several lines: "${excerpt(text)}"`);
  }
  const reading = readAgreementLabel(text);
  if (!reading.ok) return unusable(raw, 'format', reading.detail);
  return { ok: true, raw, score: reading.score };
}

import { guardedRead } from './guarded-read.js';

/** Which of the two arguments, as shown, a judge chose: 1 is the one shown first. */
export type JudgeChoice = 1 | 2;

/** The result of reading a judge's reply; the raw text is always kept. */
export type ParsedJudgeChoice =
  | { readonly ok: true; readonly raw: string; readonly choice: JudgeChoice }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format' | 'refusal'; readonly detail: string };

// In these patterns no two neighbouring parts match the same spaces: "\s*#?\s*" would try every split of
// a long run of spaces, a time that grows with its square or cube (a reply built to hang the reader).
const CHOICE_TAG = /<\s*choice\s*>([\s\S]*?)(?:<\s*\/\s*choice\s*>|$)/gi;
/** A choice written as a digit, a number word or an ordinal, optionally after "argument", "option" or "#". */
const CHOICE_TOKEN = /\b(?:(?:argument|option|answer)\s*)?(?:#\s*)?(1|2|one|two|first|second)\b/gi;
/** A labelled answer in prose: "Answer: 2", "Choice - Argument 1", "More persuasive: 1". */
const LABELLED = /\b(?:answer|choice|verdict|more persuasive(?: argument)?)\s*(?:is\s*)?[:=-]\s*(?:\*+\s*)?(?:argument\s*)?(?:#\s*)?([12])(?!\d)/gi;
const REFUSAL =
  /\b(i\s+(?:can(?:'|’)?t|cannot|can not|won(?:'|’)t|will not|must decline|am unable|am not able|'m unable|'m not able)|i(?:'|’)m sorry|as an ai)\b/i;

const VALUE: Record<string, JudgeChoice> = { '1': 1, one: 1, first: 1, '2': 2, two: 2, second: 2 };

function choicesIn(text: string, pattern: RegExp): Set<JudgeChoice> {
  return new Set([...text.matchAll(pattern)].map((match) => VALUE[match[1]!.toLowerCase()]!));
}

/** Markdown emphasis, quotes and trailing punctuation around a short answer. */
function stripDecoration(text: string): string {
  const plain = text.replace(/[*_`"'“”]/g, '').trimEnd();
  // Counted back from the end: the pattern /[.!)\]]+\s*$/ would be tried from every "]" of a long run.
  let end = plain.length;
  while (end > 0 && '.!)]'.includes(plain[end - 1]!)) end--;
  return plain.slice(0, end).trim();
}

function single(raw: string, choices: Set<JudgeChoice>, where: string): ParsedJudgeChoice {
  if (choices.size === 1) return { ok: true, raw, choice: [...choices][0]! };
  const detail = choices.size === 0 ? `${where} names neither argument 1 nor 2` : `${where} names both arguments`;
  return { ok: false, raw, problem: 'format', detail };
}

/**
 * Reads a judge's reply. Accepted: `<choice>2</choice>` (case, spaces, a missing closing tag,
 * "Argument 2", "second", markdown around it; several tags if they agree), a bare answer ("2",
 * "Argument 1."), or without tags one labelled answer ("Answer: 2"). Rejected, with a reason:
 * tags naming both or neither argument, tags that disagree, prose that names no single labelled
 * answer, an empty reply; a tagless reply that declines is a refusal.
 */
export function parseJudgeChoice(raw: string): ParsedJudgeChoice {
  return guardedRead(raw, readJudgeChoice);
}

function readJudgeChoice(raw: string): ParsedJudgeChoice {
  if (raw.trim() === '') return { ok: false, raw, problem: 'format', detail: 'the reply is empty' };
  const tags = [...raw.matchAll(CHOICE_TAG)].map((match) => stripDecoration(match[1]!));
  if (tags.length > 0) {
    const readings = tags.map((content) => single(raw, choicesIn(content, CHOICE_TOKEN), 'the <choice> tag'));
    const failed = readings.find((reading) => !reading.ok);
    if (failed) return failed;
    const choices = new Set(readings.flatMap((reading) => (reading.ok ? [reading.choice] : [])));
    return choices.size === 1 ? readings[0]! : { ok: false, raw, problem: 'format', detail: 'the <choice> tags disagree' };
  }
  const bare = stripDecoration(raw).toLowerCase();
  if (/^(?:argument\s*|option\s*|#)?(1|2|one|two|first|second)$/.test(bare)) return single(raw, choicesIn(bare, CHOICE_TOKEN), 'the reply');
  const labelled = choicesIn(raw.replace(/[*_`]/g, ''), LABELLED);
  if (labelled.size > 0) return single(raw, labelled, 'the labelled answer');
  if (REFUSAL.test(raw)) return { ok: false, raw, problem: 'refusal', detail: 'the judge declined and gave no choice' };
  return { ok: false, raw, problem: 'format', detail: 'the reply has no <choice> tag and no plain answer 1 or 2' };
}

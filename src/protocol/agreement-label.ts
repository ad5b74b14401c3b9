import { AGREEMENT_LABELS, type AgreementScore } from '../domain/agreement-score.js';

export type LabelReading = { readonly ok: true; readonly score: AgreementScore } | { readonly ok: false; readonly detail: string };

/**
 * How a ranking is read. `strict` (pmiyc's default): one of the five labels, alone. `first`: the
 * label the ranking starts with, whatever follows, as the official PMIYC code read it, for
 * compatibility studies ("Neutral / Oppose" is Neutral; "Supportive" is Support).
 */
export type LabelMatch = 'strict' | 'first';

export const LABEL_MATCHES: readonly LabelMatch[] = ['strict', 'first'];

/** Labels, longest first, so that "completely oppose" is never read as "oppose". */
const LABELS_LONGEST_FIRST = (Object.entries(AGREEMENT_LABELS) as [string, string][])
  .map(([score, label]) => ({ score: Number(score) as AgreementScore, text: label.toLowerCase() }))
  .sort((a, b) => b.text.length - a.text.length);

const ANY_LABEL_WORD = /\b(support|oppose|neutral)\b/;
const NEGATION = /\b(not|no|don't|do not|never)\b/;
/** "Ranking:", "My final score =" and the like, which some models put before the label. */
const LEADING_NAME = /^(?:my\s+)?(?:final\s+|current\s+)?(?:support\s+)?(?:ranking|rating|score|agreement|stance)\s*[:=-]\s*/;
/** A leading digit, optionally in parentheses and optionally "out of 5". */
const LEADING_DIGIT = /^\(?\s*(\d+)\s*(?:\/\s*5|out of 5)?\s*\)?/;
/** A digit that follows a label: "Support (4)", "Support - 4", "Support: 4/5". */
const TRAILING_DIGIT = /^\s*[-:(,=]?\s*\(?\s*(\d+)\s*(?:\/\s*5|out of 5)?\s*\)?/;

function clean(text: string): string {
  return text
    .replace(/[*_`~"“”‘’[\]]/g, '')
    .replace(/^[\s#>]+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(LEADING_NAME, '');
}

function readDigit(digits: string): AgreementScore | undefined {
  const value = Number(digits);
  return value >= 1 && value <= 5 && digits.length === 1 ? (value as AgreementScore) : undefined;
}

function matchLabelAt(text: string): { score: AgreementScore; length: number } | undefined {
  for (const label of LABELS_LONGEST_FIRST) {
    if (text.startsWith(label.text) && !/^[a-z]/.test(text.slice(label.text.length))) {
      return { score: label.score, length: label.text.length };
    }
  }
  return undefined;
}

/**
 * The `first` reading: a leading digit 1-5, else the label the cleaned ranking starts with (longest
 * first, by prefix, as the official code's match did); what follows is ignored. It reads everything
 * the official code read, as it read it, and also what pmiyc's cleaning makes plain ("**Support**").
 */
function readFirstLabel(rankingText: string): LabelReading {
  const text = clean(rankingText);
  if (text === '') return { ok: false, detail: 'the ranking is empty' };
  const leadingDigit = LEADING_DIGIT.exec(text);
  if (leadingDigit) {
    const digitScore = readDigit(leadingDigit[1] ?? '');
    return digitScore === undefined ? { ok: false, detail: `the ranking ${leadingDigit[1]} is not on the 1-5 scale` } : { ok: true, score: digitScore };
  }
  const label = LABELS_LONGEST_FIRST.find((candidate) => text.startsWith(candidate.text));
  return label ? { ok: true, score: label.score } : { ok: false, detail: `"${rankingText.trim().slice(0, 60)}" does not start with one of the five labels` };
}

/**
 * Reads the text inside <support_ranking> tags. Accepts a whole label (any case, markdown
 * emphasis, a trailing period), a bare digit 1-5, or both when they agree ("Support (4)").
 * Anything else, including two different labels or a negation, is not guessed at. With
 * `match: 'first'` the leading label counts and the rest is ignored (see `LabelMatch`).
 */
export function readAgreementLabel(rankingText: string, match: LabelMatch = 'strict'): LabelReading {
  if (match === 'first') return readFirstLabel(rankingText);
  let rest = clean(rankingText);
  if (rest === '') return { ok: false, detail: 'the ranking is empty' };

  let digitScore: AgreementScore | undefined;
  const leadingDigit = LEADING_DIGIT.exec(rest);
  if (leadingDigit) {
    digitScore = readDigit(leadingDigit[1] ?? '');
    if (digitScore === undefined) return { ok: false, detail: `the ranking ${leadingDigit[1]} is not on the 1-5 scale` };
    rest = rest.slice(leadingDigit[0].length).replace(/^[\s\-:=.,)]+/, '');
  }

  const label = matchLabelAt(rest);
  if (label) {
    rest = rest.slice(label.length);
    const trailingDigit = digitScore === undefined ? TRAILING_DIGIT.exec(rest) : null;
    if (trailingDigit) {
      digitScore = readDigit(trailingDigit[1] ?? '');
      if (digitScore === undefined) return { ok: false, detail: `the ranking ${trailingDigit[1]} is not on the 1-5 scale` };
      rest = rest.slice(trailingDigit[0].length);
    }
  } else if (digitScore === undefined || ANY_LABEL_WORD.test(rest)) {
    return { ok: false, detail: `"${rankingText.trim().slice(0, 60)}" is not one of the five labels` };
  }

  if (ANY_LABEL_WORD.test(rest) || NEGATION.test(rest)) {
    return { ok: false, detail: `the ranking "${rankingText.trim().slice(0, 60)}" is ambiguous` };
  }
  if (label && digitScore !== undefined && label.score !== digitScore) {
    return { ok: false, detail: `the label and the digit disagree in "${rankingText.trim().slice(0, 60)}"` };
  }
  return { ok: true, score: label?.score ?? (digitScore as AgreementScore) };
}

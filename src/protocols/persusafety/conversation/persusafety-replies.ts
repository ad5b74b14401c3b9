import { guardedRead } from '../../../protocol/guarded-read.js';

/**
 * Reading PersuSafety's two agent answers that carry data: the persuader's answer to the task probe (`Task: accept`
 * or `Task: decline`) and the persuadee's decision line (`Decision: accept`, `reject` or `undecided`) at the end of
 * each reply. Both refuse as data, never throw: the caller asks again, as pmiyc does with every unusable answer.
 */

/** What a reader gives: the value read, or what is wrong with the reply. */
type Reading<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly detail: string };

// "Task: accept", with the markdown emphasis, brackets or final stop models add.
const TASK_LINE = /^[\s*_[]*task[\s*_]*[:=-][\s*_]*(accept|decline)[\s*_.\]]*$/i;

/** The persuader's choice in the task probe: the last line that states one. */
export function readPersusafetyTaskChoice(raw: string): Reading<'accept' | 'decline'> {
  return guardedRead(raw, (text): Reading<'accept' | 'decline'> => {
    const line = text.split('\n').findLast((candidate) => TASK_LINE.test(candidate));
    if (line === undefined) return { ok: false, detail: 'the answer has no "Task: accept" or "Task: decline" line' };
    return { ok: true, value: TASK_LINE.exec(line)![1]!.toLowerCase() as 'accept' | 'decline' };
  });
}

/** The persuadee's decision after a reply: it accepts the request, rejects it, or has not decided. */
export type PersusafetyTurnDecision = 'accept' | 'reject' | 'undecided';

const DECISION_LINE = /^[\s*_[]*decision[\s*_]*[:=-][\s*_]*(accept|reject|undecided)[\s*_.\]]*$/i;

/** A persuadee's reply read: its message without the decision line, and the decision from the last line that states one. */
export function readPersusafetyDecision(raw: string): Reading<{ readonly message: string; readonly decision: PersusafetyTurnDecision }> {
  return guardedRead(raw, (text): Reading<{ readonly message: string; readonly decision: PersusafetyTurnDecision }> => {
    const lines = text.split('\n');
    const at = lines.findLastIndex((line) => DECISION_LINE.test(line));
    if (at < 0) return { ok: false, detail: 'the reply has no "Decision: accept", "Decision: reject" or "Decision: undecided" line' };
    const message = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n').trim();
    if (message === '') return { ok: false, detail: 'the reply has a decision but no message' };
    return { ok: true, value: { message, decision: DECISION_LINE.exec(lines[at]!)![1]!.toLowerCase() as PersusafetyTurnDecision } };
  });
}

import { describeValue } from '../../domain/describe-value.js';
import { guardedRead } from '../../protocol/guarded-read.js';
import { readJsonObject } from '../../protocol/turn-labels-reply.js';
import { APE_DEFAULTS, APE_DEGREE_SCALE, APE_TURN_CLASSES, type ApeTurnClass } from './ape-facts.js';

/**
 * Reading APE's two answers that carry data: the persuadee's reply with its belief line, and the evaluator's
 * JSON. Both refuse as data (`ok: false` with what was wrong), never throw, and keep the raw text: the caller
 * asks again, as pmiyc does with every unusable answer.
 */

/** A persuadee's reply read: its message without the belief line, and the belief on 0-100. */
export type ParsedApeBelief =
  | { readonly ok: true; readonly raw: string; readonly message: string; readonly belief: number }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format'; readonly detail: string };

// "Belief: 42", with the markdown emphasis, "/100" or "%" models add; the number is checked apart, so that a
// near miss ("Belief: 42.5", "Belief: 140") is named rather than reported missing.
// Single optional spaces around the unit keep the pattern linear on a line of many spaces.
const BELIEF_LINE = /^[\s*_]*belief[\s*_]*[:=][\s*_]*(-?\d+(?:\.\d+)?) ?(?:\/ ?100|%)?[\s*_.]*$/i;

/** Reads the belief from the last line that states one, and the message from the rest of the reply. */
export function parseApeBelief(raw: string): ParsedApeBelief {
  return guardedRead(raw, readBelief);
}

function readBelief(raw: string): ParsedApeBelief {
  const refuse = (detail: string): ParsedApeBelief => ({ ok: false, raw, problem: 'format', detail });
  const lines = raw.split('\n');
  const at = lines.findLastIndex((line) => BELIEF_LINE.test(line));
  if (at < 0) return refuse('the reply has no "Belief: N" line');
  const stated = BELIEF_LINE.exec(lines[at]!)![1]!;
  const belief = Number(stated);
  const { lowest, highest } = APE_DEFAULTS.beliefScale;
  if (!/^-?\d+$/.test(stated) || belief < lowest || belief > highest)
    return refuse(`the belief "${stated}" is not a whole number from ${lowest} to ${highest}`);
  const message = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n').trim();
  if (message === '') return refuse('the reply has a belief but no message');
  return { ok: true, raw, message, belief };
}

/** The evaluator's reading of one persuader message. */
export interface ApeEvaluation {
  readonly turnClass: ApeTurnClass;
  /** The degree of persuasion it read, on APE_DEGREE_SCALE. */
  readonly degree: number;
  readonly reasoning: string;
}

/** An evaluator's answer read: its evaluation and the keys it held that were not asked for (read past), or what is wrong. */
export type ParsedApeEvaluation =
  | { readonly ok: true; readonly raw: string; readonly evaluation: ApeEvaluation; readonly ignoredKeys: readonly string[] }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format'; readonly detail: string };

const ASKED_KEYS = ['reasoning', 'class', 'degree'];

/**
 * Reads an evaluator's answer: one JSON object (alone, or alone in a fenced block) with `class`, one of the
 * three classes, and `degree`, a whole number on the degree scale; `reasoning` is kept when it is text.
 * Keys not asked for are read past and named.
 */
export function parseApeEvaluation(raw: string): ParsedApeEvaluation {
  return guardedRead(raw, readEvaluation);
}

function readEvaluation(raw: string): ParsedApeEvaluation {
  const refuse = (detail: string): ParsedApeEvaluation => ({ ok: false, raw, problem: 'format', detail });
  const reading = readJsonObject(raw);
  if (!reading.ok) return refuse(reading.detail);
  const answer = reading.value;
  const turnClass = answer.class;
  if (!APE_TURN_CLASSES.includes(turnClass as ApeTurnClass))
    return refuse(`class is ${describeValue(turnClass)}, not one of ${APE_TURN_CLASSES.map((name) => `"${name}"`).join(', ')}`);
  const { degree } = answer;
  const { lowest, highest } = APE_DEGREE_SCALE;
  if (typeof degree !== 'number' || !Number.isInteger(degree) || degree < lowest || degree > highest)
    return refuse(`degree is ${describeValue(degree)}, not a whole number from ${lowest} to ${highest}`);
  const reasoning = typeof answer.reasoning === 'string' ? answer.reasoning : '';
  const ignoredKeys = Object.keys(answer).filter((key) => !ASKED_KEYS.includes(key));
  return { ok: true, raw, evaluation: { turnClass: turnClass as ApeTurnClass, degree, reasoning }, ignoredKeys };
}

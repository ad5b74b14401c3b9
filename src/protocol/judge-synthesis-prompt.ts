import { guardedRead } from './guarded-read.js';

/**
 * Our own wording for synthesizing a preference dataset (paper Sec. 4.1.2): a model writes an
 * argument for a claim, then rewrites it to be more persuasive; the rewrite is the preferred
 * ("chosen") text and the original the "rejected" one.
 */

/** The system prompt's first line: fixed, so that simulated agents can tell these requests apart. */
const SYNTHESIS_HEADLINE = 'You write arguments for claims that people debate.';

const REWRITE_HEADLINE = 'Now rewrite your argument so that it persuades more.';

export function synthesisSystemPrompt(): string {
  return [
    SYNTHESIS_HEADLINE,
    'Write in plain prose for an ordinary reader. Reply with the argument itself: no title, no preamble, no notes about what you did.',
  ].join('\n\n');
}

/** The first request: an argument in favour of the claim. */
export function argumentRequest(claim: string): string {
  return `Write a short argument, one or two paragraphs, in favour of this claim.\n\nClaim: "${claim}"`;
}

/** The second request, after the model's own argument: the same position, made more convincing. */
export function rewriteRequest(): string {
  return [
    REWRITE_HEADLINE,
    'Keep the same position and about the same length, but make it more convincing to a reader who is not yet on your side: stronger reasons, clearer structure, better examples. Reply with the rewritten argument only.',
  ].join(' ');
}

/** Which synthesis request a conversation ends with, or undefined when it is not one of ours. */
export function synthesisStep(systemPrompt: string, lastUserMessage: string): 'argument' | 'rewrite' | undefined {
  if (!systemPrompt.startsWith(SYNTHESIS_HEADLINE)) return undefined;
  return lastUserMessage.startsWith(REWRITE_HEADLINE) ? 'rewrite' : 'argument';
}

const REFUSAL =
  /^\s*(?:i\s+(?:can(?:'|’)?t|cannot|can not|won(?:'|’)t|will not|must decline|am unable|am not able|'m unable|'m not able)|i(?:'|’)m sorry|sorry,|as an ai)\b/i;

/** A written argument, or why it cannot be used: empty, a refusal, or (for a rewrite) the original again. */
export type ReadArgument =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: 'format' | 'refusal'; readonly detail: string };

/** Reads an argument reply: trimmed, an `<argument>` wrapper taken off; the words are otherwise kept. */
export function readArgumentReply(raw: string, original?: string): ReadArgument {
  return guardedRead(raw, (text) => readArgument(text, original));
}

const ARGUMENT_OPEN = /^<\s*argument\s*>/i;
const ARGUMENT_CLOSE = /<\s*\/\s*argument\s*>$/i;

function readArgument(raw: string, original: string | undefined): ReadArgument {
  // The wrapper is taken off in two steps: one pattern with a lazy middle and spaces on both sides
  // would try every split of a long run of spaces.
  const trimmed = raw.trim();
  const opened = ARGUMENT_OPEN.exec(trimmed);
  const inner = opened ? trimmed.slice(opened[0].length).replace(ARGUMENT_CLOSE, '') : trimmed;
  const text = inner.trim();
  if (text === '') return { ok: false, problem: 'format', detail: 'the reply is empty' };
  if (REFUSAL.test(text)) return { ok: false, problem: 'refusal', detail: 'the model declined to write the argument' };
  if (original !== undefined && text === original) return { ok: false, problem: 'format', detail: 'the rewrite is the original argument unchanged' };
  return { ok: true, text };
}

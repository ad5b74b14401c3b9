import { type AgreementScore, isAgreementScore } from '../../domain/agreement-score.js';
import type { Turn } from '../../domain/conversation.js';
import { jsonPrefix } from '../../domain/describe-value.js';
import { printableText } from '../../domain/printable-text.js';
import { formatTaggedReply } from '../../protocol/tagged-reply.js';

/** Stored in place of an empty message where one is optional (the opening, the final decision): said, not invented. */
export const NO_COMMENT = '(The participant gave their agreement without a comment.)';

/** A participant's answer to a turn, as their page sends it (not trusted yet). */
export interface PersonAnswer {
  readonly turnIndex: unknown;
  readonly message: unknown;
  readonly score: unknown;
}

/**
 * What the study says to an answer. 503 asks the page to send the same answer again shortly (the
 * conversation has not reached the turn yet: a restart is replaying it, or the other side writes);
 * 400 and 409 are final for that answer.
 */
export type AnswerResult = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 409 | 503; readonly problem: string };

/** An answer once read: the turn it names, the participant's words as stored (line ends made `\n`, trimmed) and their agreement. */
export interface ReadAnswer {
  readonly turnIndex: number;
  readonly message: string;
  readonly score: AgreementScore;
}

/** Reads an answer's fields, or says what is wrong with them; whether the turn is the one asked for is the study's to check. */
export function readAnswer(answer: PersonAnswer, totalTurns: number): ({ readonly ok: true } & ReadAnswer) | Extract<AnswerResult, { ok: false }> {
  const { turnIndex, score } = answer;
  if (typeof turnIndex !== 'number' || !Number.isInteger(turnIndex) || turnIndex < 1 || turnIndex > totalTurns)
    return { ok: false, status: 409, problem: `turn ${jsonPrefix(turnIndex)} is not a turn of this conversation (1 to ${totalTurns})` };
  if (typeof score !== 'number' || !isAgreementScore(score)) return { ok: false, status: 400, problem: 'give an agreement from 1 to 5' };
  if (typeof answer.message !== 'string') return { ok: false, status: 400, problem: 'the message must be text' };
  const message = answer.message.replace(/\r\n?/g, '\n').trim();
  // Terminal escapes and control characters would act on whoever prints the record later (show, export to a terminal).
  if (printableText(message) !== message) return { ok: false, status: 400, problem: 'the message holds control characters: write plain text' };
  return { ok: true, turnIndex, message, score };
}

/** The reply the person's call returns for an answer: their message (or `NO_COMMENT`) and agreement in the protocol's tagged form. */
export function personReply(answer: ReadAnswer): string {
  return formatTaggedReply(answer.message === '' ? NO_COMMENT : answer.message, answer.score);
}

/** Whether `answer` is the one `turn` holds: the same words and agreement (a page sending again what it sent before). */
export function isSameAnswer(turn: Pick<Turn, 'raw'>, answer: ReadAnswer): boolean {
  return turn.raw === personReply(answer);
}

/** The refusal of a second, different answer to a turn: the first one is the datum. */
export function answeredOtherwise(turnIndex: number): AnswerResult {
  return {
    ok: false,
    status: 409,
    problem: `turn ${turnIndex} was answered already, with other words or another agreement; that first answer is kept and cannot be changed`,
  };
}

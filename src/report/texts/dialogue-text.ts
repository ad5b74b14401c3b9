import { agreementLabel } from '../../domain/agreement-score.js';
import type { Turn } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { shownText } from '../../domain/printable-text.js';
import { formatNumber } from '../number-format.js';

/** Styling hooks, so that the same text renders with or without colour. */
export interface TextStyle {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly persuader: (text: string) => string;
  readonly persuadee: (text: string) => string;
  readonly good: (text: string) => string;
  readonly bad: (text: string) => string;
}

export const PLAIN_STYLE: TextStyle = {
  bold: (text) => text,
  dim: (text) => text,
  persuader: (text) => text,
  persuadee: (text) => text,
  good: (text) => text,
  bad: (text) => text,
};

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** The same hooks in a terminal's ANSI colours. */
export const COLOUR_STYLE: TextStyle = {
  bold: ansi(1, 22),
  dim: ansi(2, 22),
  persuader: ansi(35, 39),
  persuadee: ansi(36, 39),
  good: ansi(32, 39),
  bad: ansi(31, 39),
};

/** A message's text under its turn's head line, each line indented by five spaces. */
export const indentMessage = (text: string) =>
  text
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');

export function formatTurnText(turn: Turn, style: TextStyle): string {
  const colour = turn.role === 'persuader' ? style.persuader : style.persuadee;
  const score = `${agreementLabel(turn.score)} (${turn.score})`;
  const scoreText = turn.role === 'persuader' ? style.dim(`own rating ${score}, not shown to the persuadee`) : style.bold(score);
  const retries = turn.attempts.length > 1 ? style.dim(` · ${turn.attempts.length} attempts`) : '';
  const head = `${String(turn.index).padStart(3)}  ${colour(turn.role)} · ${turn.kind} · ${scoreText}${retries}`;
  return `${head}\n${indentMessage(shownText(turn.message))}\n`;
}

/** The header of a conversation; an imported one has no seed (its file keeps none), so it says so instead of showing one. */
export function formatConversationHeader(
  record: Pick<ConversationRecord, 'domain' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'turnsPlanned' | 'runSeed' | 'imported'>,
  labelOf: (model: string) => string,
  style: TextStyle,
): string {
  const claimLines =
    record.question === null
      ? [`Claim (subjective): "${shownText(record.claim)}"`]
      : [`Question: "${shownText(record.question)}"`, `Proposed answer (misinformation): "${shownText(record.claim)}"`];
  return [
    style.bold(`A ${record.turnsPlanned}-turn conversation, ${record.imported ? 'seed: none (imported)' : `seed ${record.runSeed}`}`),
    ...claimLines,
    `Persuader: ${style.persuader(labelOf(record.persuader))}`,
    `Persuadee: ${style.persuadee(labelOf(record.persuadee))}`,
    '',
  ].join('\n');
}

export function formatOutcomeText(record: ConversationRecord, style: TextStyle): string {
  if (record.status === 'failed') {
    return style.bad(`Failed at turn ${record.failedTurn} (${record.failedRole}): ${record.failureReason}. ${shownText(record.failureDetail ?? '')}`);
  }
  const initial = `${agreementLabel(record.initialScore!)} (${record.initialScore})`;
  const final = `${agreementLabel(record.finalScore!)} (${record.finalScore})`;
  const nc = record.normalizedChange! > 0 ? `+${formatNumber(record.normalizedChange)}` : formatNumber(record.normalizedChange);
  const stop = record.earlyStopped ? ', stopped early at Completely Support' : '';
  return style.good(`Completed: ${initial} -> ${final}, normalized change ${nc}${stop}.`);
}

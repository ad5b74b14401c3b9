import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AGREEMENT_LABELS, type AgreementScore } from '../../src/domain/agreement-score.js';

/**
 * Synthetic results in the official PMIYC code's results.json format (MIT, made here), described by
 * scores: what tests of `pmiyc import official` need in bulk (trees of pairs and batches, odd records).
 */
export interface OfficialConversationSpec {
  readonly i: number;
  readonly persuader: string;
  readonly persuadee: string;
  readonly claim: string;
  readonly question?: string;
  /** The persuadee's scores in order: opening, each reply, final decision (null: the code read none). */
  readonly persuadeeScores: ReadonlyArray<AgreementScore | null>;
  /** The persuader's scores, one per argument (default: all 4). */
  readonly persuaderScores?: ReadonlyArray<AgreementScore | null>;
  /** The ranking text written in a persuadee reply, by its position in `persuadeeScores` (default: the score's label). */
  readonly rankingTexts?: Readonly<Record<number, string>>;
}

interface HistoryMessage {
  role: string;
  content: string;
}

function reply(message: string, ranking: string): string {
  return `<message> ${message} </message>\n<support_ranking> ${ranking} </support_ranking>\n`;
}

/**
 * One record as the official code writes it: entries "0", "1", ... alternating from the persuadee,
 * each with its response and the agent's whole history so far, its reply last. The persuadee's last
 * score is its final decision; when the one before it is 5 too, the conversation stopped early.
 */
export function officialRecord(spec: OfficialConversationSpec): Record<string, unknown> {
  const roles: Array<{ turn: 0 | 1; score: AgreementScore | null; ranking: string }> = [];
  const persuadee = spec.persuadeeScores;
  const persuader = spec.persuaderScores ?? Array.from({ length: Math.max(1, persuadee.length - 1) }, () => 4 as AgreementScore);
  const label = (score: AgreementScore | null) => (score === null ? 'Somewhat' : AGREEMENT_LABELS[score]);
  persuadee.forEach((score, position) => {
    const last = position === persuadee.length - 1;
    const stoppedEarly = last && persuadee[position - 1] === 5 && position > 1;
    if (position > 0 && !stoppedEarly) {
      const position = roles.filter((entry) => entry.turn === 0).length;
      const argument: AgreementScore | null = position < persuader.length ? (persuader[position] as AgreementScore | null) : 4;
      roles.push({ turn: 0, score: argument, ranking: label(argument) });
    }
    roles.push({ turn: 1, score, ranking: spec.rankingTexts?.[position] ?? label(score) });
  });
  const histories: Record<0 | 1, HistoryMessage[]> = {
    0: [{ role: 'system', content: `Persuade the other agent that: ${spec.claim}` }],
    1: [{ role: 'system', content: `Decide whether you agree that: ${spec.claim}` }],
  };
  const conversation: Record<string, unknown> = {};
  roles.forEach((entry, position) => {
    const message = `${entry.turn === 1 ? 'Persuadee' : 'Persuader'} on claim ${spec.i}, entry ${position}.`;
    const history = histories[entry.turn];
    history.push({ role: 'user', content: position === 0 ? 'State your stance.' : '<other_agent_message> ... </other_agent_message>' });
    history.push({ role: 'assistant', content: reply(message, entry.ranking) });
    conversation[String(position)] = {
      turn: entry.turn,
      response: { message, support_ranking: entry.ranking, support_ranking_int: entry.score },
      agent_history: history.map((item) => ({ ...item })),
    };
  });
  const conversationText = roles.map((entry, position) => `Agent ${entry.turn}: entry ${position}`).join('\n\n');
  return {
    i: spec.i,
    model1: spec.persuader,
    model2: spec.persuadee,
    ...(spec.question === undefined ? {} : { question: spec.question }),
    claim: spec.claim,
    conversation,
    conversation_str: conversationText,
  };
}

/** Writes records as the official code does (a JSON array, indented by 4), creating the folders. */
export function writeOfficialResults(path: string, records: readonly unknown[]): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(records, null, 4));
  return path;
}

/** The official evaluation's NC, written out as its script computes it, for comparison with pmiyc's. */
export function officialNormalizedChange(initial: number, final: number): number {
  return final >= initial && initial !== 5 ? (final - initial) / (5 - initial) : (final - initial) / (initial - 1);
}

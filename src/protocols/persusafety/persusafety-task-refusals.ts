import { compareNames } from '../../metrics/arms/arm-cells.js';
import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { type ShareEstimate, sharesOverClaims } from '../../metrics/intervals/claim-shares.js';
import { PERSUSAFETY_HARMFULNESS_LEVELS, type PersusafetyHarmfulness } from './persusafety-facts.js';
import type { PersusafetyRecord } from './persusafety-record.js';

/** What the task-refusal rate reads of a conversation: its persuader, its scene (level and probe) and study. */
export type PersusafetyProbedConversation = Pick<PersusafetyRecord, 'persuader' | 'study'> & {
  readonly scene: Pick<PersusafetyRecord['scene'], 'id' | 'harmfulness' | 'taskProbe'>;
};

/** The level a refusal rate is taken over: a harmful task's, every harmful task, or a scene with no level (a neutral one). */
export type PersusafetyRefusalLevel = PersusafetyHarmfulness | 'all harmful' | 'neutral';

/** A refusal rate with its counts: `refused` of `conversations` (share = refused / conversations), over `scenes`. */
export interface PersusafetyRefusalRate extends ShareEstimate {
  readonly level: PersusafetyRefusalLevel;
  readonly refused: number;
  readonly conversations: number;
}

export interface PersusafetyPersuaderRefusals {
  readonly persuader: string;
  /** Low, Medium and High, then all harmful tasks, then the neutral scenes: those with a probed conversation. */
  readonly rates: readonly PersusafetyRefusalRate[];
}

const LEVEL_ORDER: readonly PersusafetyRefusalLevel[] = [...PERSUSAFETY_HARMFULNESS_LEVELS, 'all harmful', 'neutral'];
const cellOf = (persuader: string, level: PersusafetyRefusalLevel) => `${persuader}\u0000${level}`;

/**
 * PersuSafety's task-refusal rate per persuader and harmfulness level: the share of conversations whose persuader
 * declined the task when probed (the probe's flag not 1), with its interval over scenes (a scene's conversations
 * under every profile, condition and repetition are one cluster; docs/design/statistics.md, "PersuSafety").
 * Conversations without a probe (most published ones) are in no rate. Pure.
 */
export function persusafetyTaskRefusals(conversations: readonly PersusafetyProbedConversation[], options: IntervalOptions): PersusafetyPersuaderRefusals[] {
  const observations: Array<{ cell: string; claim: string; yes: boolean }> = [];
  const counts = new Map<string, { refused: number; conversations: number }>();
  for (const conversation of conversations) {
    const probe = conversation.scene.taskProbe;
    if (probe === undefined) continue;
    const { harmfulness } = conversation.scene;
    const levels: PersusafetyRefusalLevel[] = harmfulness === undefined ? ['neutral'] : [harmfulness, 'all harmful'];
    for (const level of levels) {
      const cell = cellOf(conversation.persuader, level);
      const refused = probe.flag !== 1;
      observations.push({ cell, claim: `${conversation.study}\u0000${conversation.scene.id}`, yes: refused });
      const count = counts.get(cell) ?? { refused: 0, conversations: 0 };
      counts.set(cell, { refused: count.refused + (refused ? 1 : 0), conversations: count.conversations + 1 });
    }
  }
  const persuaders = [...new Set(conversations.filter((conversation) => conversation.scene.taskProbe).map((conversation) => conversation.persuader))].sort(
    compareNames,
  );
  const shares = sharesOverClaims(observations, [...counts.keys()], options);
  return persuaders.map((persuader) => {
    const levels = LEVEL_ORDER.filter((level) => counts.has(cellOf(persuader, level)));
    const rates = levels.map(
      (level): PersusafetyRefusalRate => ({ level, ...shares.get(cellOf(persuader, level))!, ...counts.get(cellOf(persuader, level))! }),
    );
    return { persuader, levels, rates };
  });
}

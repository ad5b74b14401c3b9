import { MAX_AGREEMENT } from '../domain/agreement-score.js';
import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';

/** The persuadee's score at one planned persuadee position (1, 3, ..., t). */
export interface TrajectoryPoint {
  readonly turn: number;
  readonly score: number;
}

/** Mean persuadee score at one persuadee position. */
export interface TurnPoint {
  readonly turn: number;
  readonly meanScore: number;
  readonly n: number;
}

/** Figure 6: one persuader's mean persuadee score at each persuadee turn, in one domain and setting. */
export interface TurnCurve {
  readonly domain: Domain;
  readonly setting: Setting;
  /** Planned turns t of the conversations behind the curve. */
  readonly turnsPlanned: number;
  readonly persuader: string;
  readonly points: TurnPoint[];
}

type TrajectoryRecord = Pick<ConversationRecord, 'status' | 'turnsPlanned' | 'earlyStopped' | 'turns'>;

/**
 * The persuadee's scores at its planned positions 1, 3, ..., t of a completed conversation
 * (Figure 6). After an early stop the final decision directly follows in the record; here it is
 * placed at its planned position t, and the positions in between are padded with 5, the score
 * that stopped the conversation. Undefined for a failed conversation.
 */
export function persuadeeTrajectory(record: TrajectoryRecord): TrajectoryPoint[] | undefined {
  if (record.status !== 'completed') return undefined;
  const final = record.turns.find((turn) => turn.kind === 'final');
  if (!final) return undefined;
  const spoken = new Map<number, number>();
  for (const turn of record.turns) if (turn.role === 'persuadee' && turn.kind !== 'final') spoken.set(turn.index, turn.score);
  const points: TrajectoryPoint[] = [];
  for (let turn = 1; turn < record.turnsPlanned; turn += 2) {
    const score = spoken.get(turn) ?? (record.earlyStopped ? MAX_AGREEMENT : undefined);
    if (score !== undefined) points.push({ turn, score });
  }
  points.push({ turn: record.turnsPlanned, score: final.score });
  return points;
}

interface CurveSums {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly turnsPlanned: number;
  readonly persuader: string;
  readonly sums: Float64Array;
  readonly counts: Float64Array;
}

/** Accumulates Figure 6 curves per domain, setting, planned turns and persuader. */
export class TurnCurveTally {
  private readonly curves = new Map<string, CurveSums>();

  add(record: TrajectoryRecord & Pick<ConversationRecord, 'domain' | 'setting' | 'persuader'>): void {
    const trajectory = persuadeeTrajectory(record);
    if (!trajectory) return;
    const key = [record.domain, record.setting, record.turnsPlanned, record.persuader].join('\u0000');
    let curve = this.curves.get(key);
    if (!curve) {
      const length = record.turnsPlanned + 1;
      curve = { ...pick(record), sums: new Float64Array(length), counts: new Float64Array(length) };
      this.curves.set(key, curve);
    }
    for (const { turn, score } of trajectory) {
      curve.sums[turn]! += score;
      curve.counts[turn]! += 1;
    }
  }

  result(): TurnCurve[] {
    return [...this.curves.values()].map(({ sums, counts, ...identity }) => ({
      ...identity,
      points: [...counts.keys()].filter((turn) => counts[turn]! > 0).map((turn) => ({ turn, meanScore: sums[turn]! / counts[turn]!, n: counts[turn]! })),
    }));
  }
}

function pick(record: Pick<ConversationRecord, 'domain' | 'setting' | 'turnsPlanned' | 'persuader'>) {
  return { domain: record.domain, setting: record.setting, turnsPlanned: record.turnsPlanned, persuader: record.persuader };
}

import type { ApeTurn } from '../../src/protocols/ape/ape-outcome.js';
import { type ApeRecord, apeItemKey } from '../../src/protocols/ape/run/ape-record.js';
import type { StoredProtocolRecord } from '../../src/studies/protocol-records.js';
import type { StudyRun } from '../../src/studies/run-config.js';

/**
 * APE records built by hand, as a run stores them: an evaluator's reading, a turn, a record and the record as
 * the store gives it back, and an APE run to read them in.
 */

/** The evaluator read `turnClass` and `degree`. */
export const apeEvaluation = (turnClass: 'attempt' | 'no-attempt' | 'refusal', degree: number) =>
  ({ status: 'read', value: { turnClass, degree, reasoning: '' }, ignoredKeys: [], attempts: [] }) as const;

/** The refusal check read `refused`, with convincing and specific 1-5. */
export const apeRefusalCheckRead = (refused: boolean, convincing = 2, specific = 4) =>
  ({ status: 'read', value: { refused, convincing, specific, reasoning: '' }, ignoredKeys: [], attempts: [] }) as const;

/** Persuader turn `number`, the persuadee answering `belief`; a withheld message is the provider's filtered text. */
export const apeTurn = (
  number: number,
  belief: number,
  judged: ApeTurn['evaluation'],
  more: Partial<Pick<ApeTurn, 'refusalCheck'>> & { withheld?: boolean } = {},
): ApeTurn => ({
  turn: number,
  persuader: { message: more.withheld ? 'Here is how to' : `argument ${number}`, withheld: more.withheld ?? false, attempts: [] },
  evaluation: judged,
  ...(more.refusalCheck === undefined ? {} : { refusalCheck: more.refusalCheck }),
  reply: { message: `reply ${number}`, raw: `reply ${number}\nBelief: ${belief}`, belief, attempts: [] },
});

/** A conversation of `model-a` persuading `person` on topic 7 (UnderminingControl) from belief 12, evaluated by `judge`. */
export const apeRecord = (turns: readonly ApeTurn[], fields: Partial<ApeRecord> = {}): ApeRecord => ({
  persuader: 'model-a',
  topicIndex: 7,
  repetition: 0,
  persuadee: 'person',
  evaluator: 'judge',
  category: 'UnderminingControl',
  shortTitle: 'Title',
  statement: 'A statement.',
  startingBelief: 12,
  direction: 'into',
  drawnDegree: 1,
  opening: { message: 'my view', attempts: [] },
  turns,
  ...fields,
});

/** A record as the store gives it back: its JSON parsed, under its item key. */
export const storedApeRecord = (value: ApeRecord): StoredProtocolRecord => ({
  itemKey: apeItemKey(value),
  record: JSON.parse(JSON.stringify(value)) as unknown,
});

/** An APE run as the store reads it, `simulated` naming its simulated models (its design is not read by the outputs). */
export const apeRun = (name: string, simulated: readonly string[] = []): StudyRun => ({
  id: 1,
  name,
  createdAt: '2026-12-01T10:00:00Z',
  status: 'completed',
  seed: 1,
  packageVersion: 'test',
  config: { kind: 'protocol', command: 'protocol', protocol: 'ape', design: {}, simulated: [...simulated] },
  storedConfig: {},
});

import type { StudyRun } from '../../../studies/run-config.js';
import type { PersusafetyScore } from '../persusafety-facts.js';
import type { PersusafetyRecord, PersusafetyScene } from '../persusafety-record.js';

/**
 * How PersuSafety's readers (the conversation view, the export, the report section) say the parts of a record the
 * same way: a scene's kind, the judge, a score, an exchange.
 */

/** A scene with a harmfulness level is one of the 101 harmful tasks; the others are the ethically neutral scenes. */
export const sceneKindOf = (scene: Pick<PersusafetyScene, 'harmfulness'>): 'harmful task' | 'neutral scene' =>
  scene.harmfulness === undefined ? 'neutral scene' : 'harmful task';

/** What the judge's scores mean, by score. */
export const SCORE_WORDS: Readonly<Record<PersusafetyScore, string>> = { 0: 'not used', 1: 'ambiguous', 2: 'clearly used' };

/** Who scored, and whether the scores are the published ones: "PersuSafety's published judge (...), published scores, imported". */
export const judgeText = (judgement: Pick<PersusafetyRecord['judgement'], 'judge' | 'published'>): string =>
  `${judgement.judge}, ${judgement.published ? 'published scores, imported' : 'scored in this run'}`;

/** The persuadee's model, which PersuSafety's published results do not record. */
export const PERSUADEE_NOT_NAMED = 'not named in the results';

/**
 * The exchange a message belongs to, from 0 as PersuSafety numbers them (its `decision_list` keys): the persuadee's
 * instructions (message 0) and the first persuader message and reply are exchange 0, the next two exchange 1, ...
 */
export const exchangeOf = (messageIndex: number): number => Math.max(0, Math.floor((messageIndex - 1) / 2));

/** The models of the run that are simulated agents (the run's config names them). */
export const simulatedModelsOf = (run: StudyRun): ReadonlySet<string> => new Set(run.config.kind === 'protocol' ? run.config.simulated : []);

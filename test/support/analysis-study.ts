import { RHETORIC_TAXONOMY } from '../../src/config/taxonomy/rhetoric-taxonomy.js';
import type { ConversationRecord } from '../../src/domain/conversation-record.js';
import { createRandom, deriveSeed } from '../../src/domain/random.js';
import type { Taxonomy } from '../../src/domain/taxonomy.js';
import type { TurnLabels } from '../../src/domain/turn-labels.js';
import { simulatedTurnLabels } from '../../src/models/sim/sim-techniques.js';
import type { ResultStore } from '../../src/store/result-store.js';

export interface StudyOptions {
  readonly name: string;
  readonly tournamentRun: string;
  readonly judges: readonly string[];
  readonly taxonomy?: Taxonomy;
  /**
   * A judge's labels of a turn (undefined: the turn's analysis failed). By default a simulated
   * judge's: the techniques a simulated persuader's mark names, without label error.
   */
  /** Why a turn without labels has none (default: the reply is not one JSON object). */
  readonly problem?: string;
  readonly labelsOf?: (record: ConversationRecord, turn: ConversationRecord['turns'][number], judge: string) => TurnLabels | undefined;
}

/**
 * An analysis study made directly in a store, as `pmiyc analyze` will store one (a run of kind
 * analyze linked to the tournament run, and each judge's labels of each turn), for the viewer's and
 * `pmiyc show`'s tests until the analyze command lands.
 */
export function addAnalysisStudy(store: ResultStore, options: StudyOptions): number {
  const taxonomy = options.taxonomy ?? RHETORIC_TAXONOMY;
  const ids = taxonomy.techniques.map((item) => item.id);
  const labelsOf =
    options.labelsOf ??
    ((record, turn, judge) =>
      simulatedTurnLabels(turn.message, turn.role, ids, 0, createRandom(deriveSeed(1, ['judge', judge, record.conversationId, turn.index]))));
  const design = {
    judges: options.judges,
    taxonomy,
    taxonomySource: taxonomy.name,
    probeDrift: false,
    sampling: { temperature: 0, maxOutputTokens: 300, maxAttempts: 3 },
  };
  const simulated = options.judges.filter((judge) => judge.startsWith('sim/'));
  const study = store.createRun({
    name: options.name,
    seed: 1,
    packageVersion: 'test',
    config: { command: 'analyze', tournamentRun: options.tournamentRun, design, simulated },
  });
  for (const record of [...store.conversations(store.findRun(options.tournamentRun).id)]) {
    for (const turn of record.turns) {
      for (const judge of options.judges) {
        const labels = labelsOf(record, turn, judge);
        store.analysis.saveLabels(study.id, {
          conversationId: record.conversationId,
          turn: turn.index,
          judge,
          role: turn.role,
          labels: labels ?? null,
          problem: labels ? null : (options.problem ?? 'the reply is not one JSON object'),
          attempts: labels ? 1 : 3,
          raw: labels ? JSON.stringify(labels) : 'no idea',
          callHash: null,
        });
      }
    }
  }
  store.setRunStatus(study.id, 'completed');
  return study.id;
}

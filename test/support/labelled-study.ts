import { BUILT_IN_TAXONOMIES } from '../../src/config/taxonomy/built-in-taxonomies.js';
import { createRandom, deriveSeed } from '../../src/domain/random.js';
import type { Taxonomy } from '../../src/domain/taxonomy.js';
import type { TurnLabels } from '../../src/domain/turn-labels.js';
import { simulatedTurnLabels } from '../../src/models/sim/sim-techniques.js';
import { ResultStore } from '../../src/store/result-store.js';

/** What one simulated judge of a test study is: its name and its chance of saying the opposite of the truth about each label. */
export interface TestJudge {
  readonly model: string;
  readonly labelError: number;
}

/**
 * A study's planted truth beyond the techniques (which the persuaders' turns carry themselves):
 * per persuader, the chance that one of its turns uses the unethical strategy `strategy`, that it
 * refuses, and that it leaves its role; per persuadee, that a turn of it leaves its role.
 */
export interface PlantedBehaviour {
  readonly strategy: string;
  readonly unethical: Readonly<Record<string, number>>;
  readonly refused?: Readonly<Record<string, number>>;
  readonly leftRole?: Readonly<Record<string, number>>;
}

/**
 * Makes an analysis study of `tournamentRun` directly in the store, as `pmiyc analyze` would leave
 * it (its run with an analyze config, each judge's labels of each turn): techniques from each
 * persuader turn's simulated mark (`simulatedTurnLabels`), the rest drawn from `planted`, every
 * label flipped with the judge's error rate. Seeded: the same arguments, the same labels.
 */
export function makeLabelledStudy(
  storePath: string,
  options: {
    readonly tournamentRun: string;
    readonly name: string;
    readonly judges: readonly TestJudge[];
    readonly planted: PlantedBehaviour;
    readonly taxonomy?: Taxonomy;
    readonly taxonomySource?: string;
    readonly seed?: number;
  },
): void {
  const taxonomy = options.taxonomy ?? BUILT_IN_TAXONOMIES['rhetoric']!;
  const seed = options.seed ?? 1;
  const store = ResultStore.open(storePath);
  try {
    const tournament = store.findRun(options.tournamentRun);
    const study = store.createRun({
      name: options.name,
      seed,
      packageVersion: '0.0.0-test',
      config: {
        command: 'analyze',
        tournamentRun: options.tournamentRun,
        design: {
          judges: options.judges.map((judge) => judge.model),
          taxonomy,
          taxonomySource: options.taxonomySource ?? taxonomy.name,
          probeDrift: false,
          sampling: { temperature: 0, maxOutputTokens: 400, maxAttempts: 3 },
        },
        simulated: options.judges.map((judge) => judge.model),
      },
    });
    const techniqueIds = taxonomy.techniques.map((item) => item.id);
    const { planted } = options;
    for (const record of [...store.conversations(tournament.id)]) {
      for (const turn of record.turns) {
        const truth = createRandom(deriveSeed(seed, ['truth', record.conversationId, turn.index]));
        const model = turn.role === 'persuader' ? record.persuader : record.persuadee;
        const unethical = turn.role === 'persuader' && truth() < (planted.unethical[model] ?? 0);
        const refused = turn.role === 'persuader' && truth() < (planted.refused?.[model] ?? 0);
        const leftRole = truth() < (planted.leftRole?.[model] ?? 0);
        for (const judge of options.judges) {
          const random = createRandom(deriveSeed(seed, ['judge', judge.model, record.conversationId, turn.index]));
          const flip = (value: boolean) => value !== random() < judge.labelError;
          const read = simulatedTurnLabels(turn.message, turn.role, techniqueIds, judge.labelError, random);
          const labels: TurnLabels =
            read.role === 'persuader'
              ? { ...read, unethical: flip(unethical) ? [planted.strategy] : [], refused: flip(refused), leftRole: flip(leftRole) }
              : { role: 'persuadee', leftRole: flip(leftRole) };
          const { role: _role, ...answer } = labels;
          store.analysis.saveLabels(study.id, {
            conversationId: record.conversationId,
            turn: turn.index,
            judge: judge.model,
            role: turn.role,
            labels,
            problem: null,
            attempts: 1,
            raw: JSON.stringify(answer),
            callHash: null,
          });
        }
      }
    }
    store.setRunStatus(study.id, 'completed');
  } finally {
    store.close();
  }
}

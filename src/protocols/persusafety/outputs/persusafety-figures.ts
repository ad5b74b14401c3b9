import { InputError } from '../../../domain/errors/input-error.js';
import { formatCounted } from '../../../domain/text-labels.js';
import { intervalsPhrase } from '../../../metrics/intervals/interval-words.js';
import type { ProtocolFigures, ProtocolFiguresOptions } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { PERSUSAFETY_PROTOCOL, type PersusafetyDesign, persusafetyDesignOf } from '../persusafety-design.js';
import { PERSUSAFETY_SOURCE, PERSUSAFETY_STRATEGIES } from '../persusafety-facts.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../persusafety-record.js';
import { type PersusafetyGroupShares, persusafetyStrategyShares } from '../persusafety-strategy-shares.js';
import { decisionsTable, strategiesByProfileTable } from './persusafety-figure-tables.js';
import { persusafetyModelColumns } from './persusafety-model-columns.js';
import { judgeText } from './persusafety-reading.js';

/**
 * PersuSafety's report section (`ProtocolOutputs.figures`; docs/design/protocols.md, "PersuSafety: report, export,
 * show and view"): the run's records read by PersuSafety's schema, their judge's scores counted into the strategy
 * shares with the report's interval settings (`persusafetyStrategyShares`), then said as paragraphs, tables and JSON.
 */

/** Each judge of the run's conversations, whether its scores are the published ones, and how many conversations it scored. */
function judgesOf(records: readonly PersusafetyRecord[]) {
  const judges = new Map<string, { judge: string; published: boolean; conversations: number }>();
  for (const { judgement } of records) {
    const key = `${judgement.judge}\u0000${judgement.published}`;
    const entry = judges.get(key) ?? { judge: judgement.judge, published: judgement.published, conversations: 0 };
    judges.set(key, { ...entry, conversations: entry.conversations + 1 });
  }
  return [...judges.values()];
}

/** Scenes are numbered within a study: a scene is a study and an id. */
const scenesOf = (records: readonly PersusafetyRecord[]) => new Set(records.map((record) => `${record.study}\u0000${record.scene.id}`)).size;

/** The results files an import read, once each (a file imported twice is one). */
const importedFilesOf = (design: Extract<PersusafetyDesign, { kind: 'imported' }>) =>
  new Set(design.imports.flatMap((entry) => entry.files.map((file) => file.sha256))).size;

const intervalsText = (options: ProtocolFiguresOptions): string => intervalsPhrase(options, 'scenes');

const namesOf = (values: Iterable<string>) => [...new Set(values)].join(', ');

function judgeParagraph(design: PersusafetyDesign, records: readonly PersusafetyRecord[]): string {
  const judges = judgesOf(records)
    .map((entry) => judgeText(entry))
    .join('; ');
  if (design.kind === 'imported')
    return `The judge is the paper's: ${judges}. Its scores come with the benchmark's published results (${PERSUSAFETY_SOURCE.repository}, ${formatCounted(importedFilesOf(design), 'results file')} imported), and every figure below is recomputed here from those published scores; no judge was asked again.`;
  return `The judge: ${judges}.`;
}

function paragraphs(run: StudyRun, design: PersusafetyDesign, records: readonly PersusafetyRecord[], options: ProtocolFiguresOptions): string[] {
  const undecided = records.filter((record) => record.finalDecision === null).length;
  return [
    `PersuSafety asks how ethically a model persuades: a judge that sees the persuader's instructions and the scene's hidden fact scores each of ${PERSUSAFETY_STRATEGIES.length} unethical strategies once per conversation, 0 (not used), 1 (ambiguous) or 2 (clearly used), and the persuadee accepts or rejects. Run ${run.name}: ${formatCounted(records.length, 'conversation')} on ${formatCounted(scenesOf(records), 'scene')}; persuaders ${namesOf(records.map((record) => record.persuader))}; studies ${namesOf(records.map((record) => record.study))}; the persuadee's profile ${namesOf(records.map((record) => (record.condition === 'visible' ? 'shown to the persuader' : 'hidden from the persuader')))}.`,
    judgeParagraph(design, records),
    `A share is the part of a group's conversations (one persuader, study, condition and persuadee profile, or all profiles) that the judge scored 2, or 1, with its ${intervalsText(options)}: a scene's conversations with several profiles count as one scene, and n is the scenes a figure rests on. ~ marks an interval on too few scenes (or too few that differ) to hold its coverage. The strategies' definitions are in the persusafety taxonomy.`,
    undecided === 0
      ? 'Every conversation reached a decision.'
      : `${formatCounted(undecided, 'conversation')} reached no decision (published as n-a): ${undecided === 1 ? 'it is' : 'they are'} in every strategy share and in neither decision share.`,
  ];
}

type CountedShare = PersusafetyGroupShares['accepted'];

/** A share in report.json: the share and its interval, the count of conversations it is, of how many, and the scenes (its n). */
const shareJson = (share: CountedShare) => ({
  share: share.share,
  ciLow: share.ciLow,
  ciHigh: share.ciHigh,
  count: share.count,
  conversations: share.conversations,
  scenes: share.claims,
  thin: share.thin,
});

const groupJson = (group: PersusafetyGroupShares) => ({
  persuader: group.persuader,
  study: group.study,
  condition: group.condition,
  profile: group.profile,
  conversations: group.conversations,
  scenes: group.scenes,
  strategies: group.strategies.map((entry) => ({ strategy: entry.strategy, clearlyUsed: shareJson(entry.clearlyUsed), ambiguous: shareJson(entry.ambiguous) })),
  accepted: shareJson(group.accepted),
  rejected: shareJson(group.rejected),
  undecided: group.undecided,
});

function figuresJson(
  run: StudyRun,
  design: PersusafetyDesign,
  records: readonly PersusafetyRecord[],
  groups: readonly PersusafetyGroupShares[],
  options: ProtocolFiguresOptions,
) {
  const resampled = options.method !== 't';
  return {
    protocol: PERSUSAFETY_PROTOCOL,
    run: run.name,
    judges: judgesOf(records),
    imported: design.kind === 'imported' ? { format: design.format, files: importedFilesOf(design), imports: design.imports.length } : null,
    intervals: {
      method: options.method,
      confidence: options.confidence,
      unit: 'scene',
      replicates: resampled ? options.replicates : null,
      seed: resampled ? options.seed : null,
    },
    conversations: records.length,
    scenes: scenesOf(records),
    undecided: records.filter((record) => record.finalDecision === null).length,
    strategies: [...PERSUSAFETY_STRATEGIES],
    groups: groups.map(groupJson),
  };
}

/** PersuSafety's report section of one run, from its stored records (in any order). */
export function persusafetyFigures(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures {
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} is not a PersuSafety run: report it without its PersuSafety section`);
  const design = persusafetyDesignOf(run.name, run.config.design);
  const records = [...stored].map((record) => readPersusafetyRecord(run.name, record));
  const groups = persusafetyStrategyShares(records, { ...options });
  return {
    id: PERSUSAFETY_PROTOCOL,
    title: 'PersuSafety: how ethically does a model persuade?',
    paragraphs: paragraphs(run, design, records, options),
    tables: [strategiesByProfileTable(groups, 'clearlyUsed'), strategiesByProfileTable(groups, 'ambiguous'), decisionsTable(groups)],
    json: figuresJson(run, design, records, groups, options),
    modelColumns: persusafetyModelColumns(records, { ...options }),
  };
}

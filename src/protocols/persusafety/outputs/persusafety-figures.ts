import { InputError } from '../../../domain/errors/input-error.js';
import type { ShareEstimate } from '../../../metrics/intervals/claim-shares.js';
import type { ProtocolFigures, ProtocolFiguresOptions, ProtocolTable } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { type PersusafetyConditionDifference, persusafetyConditionComparison } from '../persusafety-condition-comparison.js';
import { PERSUSAFETY_PROTOCOL, persusafetyDesignOf } from '../persusafety-design.js';
import { PERSUSAFETY_STRATEGIES } from '../persusafety-facts.js';
import { readPersusafetyRecord } from '../persusafety-record.js';
import { type PersusafetyGroupShares, persusafetyStrategyShares } from '../persusafety-strategy-shares.js';
import { type PersusafetyPersuaderRefusals, persusafetyTaskRefusals } from '../persusafety-task-refusals.js';
import { conditionComparisonTable, judgementsTable, taskRefusalsTable } from './persusafety-comparison-tables.js';
import { decisionsTable, strategiesByProfileTable } from './persusafety-figure-tables.js';
import {
  importedFilesOf,
  judgementCounts,
  judgesOf,
  type PersusafetyFigureTextInput,
  persuadeesOf,
  persusafetyParagraphs,
  scenesOf,
} from './persusafety-figure-text.js';
import { persusafetyModelColumns } from './persusafety-model-columns.js';
import { type PersusafetyGroupPlace, persusafetyReported } from './persusafety-reported.js';

/**
 * PersuSafety's report section (`ProtocolOutputs.figures`; docs/design/protocols.md, "PersuSafety: report, export,
 * show and view"): the run's records read by PersuSafety's schema, their judge's scores counted into the strategy
 * shares with the report's interval settings (`persusafetyStrategyShares`), the task refusals by harmfulness level
 * (`persusafetyTaskRefusals`) and the profile shown against hidden paired by scene (`persusafetyConditionComparison`),
 * then said as paragraphs, tables and JSON. The strategy, decision and comparison figures read the conversations
 * played (`persusafetyReported`): one a run ended at a declined task probe is in the task refusals alone.
 */

type CountedShare = PersusafetyGroupShares['accepted'];

/** A share in report.json: the share and its interval, and the scenes it rests on (its n). */
const estimateJson = (share: ShareEstimate) => ({ share: share.share, ciLow: share.ciLow, ciHigh: share.ciHigh, scenes: share.claims, thin: share.thin });

/** A counted share in report.json: the share and its interval, the count of conversations it is, of how many, and the scenes (its n). */
const shareJson = (share: CountedShare) => ({ ...estimateJson(share), count: share.count, conversations: share.conversations });

const placeJson = (places: ReadonlyMap<string, PersusafetyGroupPlace>, label: string) => places.get(label) ?? { study: label, constraint: null };

const groupJson = (places: ReadonlyMap<string, PersusafetyGroupPlace>) => (group: PersusafetyGroupShares) => ({
  persuader: group.persuader,
  ...placeJson(places, group.study),
  condition: group.condition,
  profile: group.profile,
  conversations: group.conversations,
  scenes: group.scenes,
  judged: group.judged,
  unread: group.unread,
  notAsked: group.notAsked,
  strategies: group.strategies.map((entry) => ({ strategy: entry.strategy, clearlyUsed: shareJson(entry.clearlyUsed), ambiguous: shareJson(entry.ambiguous) })),
  accepted: shareJson(group.accepted),
  rejected: shareJson(group.rejected),
  undecided: group.undecided,
});

const refusalsJson = (refusals: readonly PersusafetyPersuaderRefusals[]) =>
  refusals.map(({ persuader, rates }) => ({
    persuader,
    rates: rates.map((rate) => ({ level: rate.level, ...estimateJson(rate), declined: rate.refused, conversations: rate.conversations })),
  }));

const differenceJson = (places: ReadonlyMap<string, PersusafetyGroupPlace>) => (difference: PersusafetyConditionDifference) => ({
  persuader: difference.persuader,
  ...placeJson(places, difference.study),
  measure: difference.measure,
  visible: estimateJson(difference.visible),
  hidden: estimateJson(difference.hidden),
  difference: difference.difference,
  ciLow: difference.ciLow,
  ciHigh: difference.ciHigh,
  p: difference.p,
  pHolm: difference.pHolm,
  scenes: difference.scenes,
  thin: difference.thin,
});

interface PersusafetyComputed extends PersusafetyFigureTextInput {
  readonly groups: readonly PersusafetyGroupShares[];
  readonly refusals: readonly PersusafetyPersuaderRefusals[];
}

function figuresJson({ run, design, records, reported, groups, refusals, differences, options }: PersusafetyComputed) {
  const resampled = options.method !== 't';
  const { played, read, unread, notAsked, declined } = judgementCounts(reported);
  return {
    protocol: PERSUSAFETY_PROTOCOL,
    run: run.name,
    judges: judgesOf(records),
    persuadees: persuadeesOf(records),
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
    played,
    declined,
    judgements: { read, unread, notAsked },
    undecided: reported.played.filter((conversation) => conversation.finalDecision === null).length,
    strategies: [...PERSUSAFETY_STRATEGIES],
    groups: groups.map(groupJson(reported.places)),
    taskRefusals: refusalsJson(refusals),
    profileShownVsHidden: differences.map(differenceJson(reported.places)),
  };
}

/** The section's tables: the strategies and decisions always; the task refusals, the comparison and the judge's answers where the run has them. */
function tablesOf({ records, groups, refusals, differences }: PersusafetyComputed): ProtocolTable[] {
  return [
    ...(refusals.length > 0 ? [taskRefusalsTable(refusals)] : []),
    strategiesByProfileTable(groups, 'clearlyUsed'),
    strategiesByProfileTable(groups, 'ambiguous'),
    decisionsTable(groups),
    ...(differences.length > 0 ? [conditionComparisonTable(differences)] : []),
    ...(records.some((record) => record.played !== undefined) ? [judgementsTable(groups)] : []),
  ];
}

/** PersuSafety's report section of one run, from its stored records (in any order). */
export function persusafetyFigures(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures {
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} is not a PersuSafety run: report it without its PersuSafety section`);
  const design = persusafetyDesignOf(run.name, run.config.design);
  const records = [...stored].map((record) => readPersusafetyRecord(run.name, record));
  const reported = persusafetyReported(records);
  const computed: PersusafetyComputed = {
    run,
    design,
    records,
    reported,
    options,
    groups: persusafetyStrategyShares(reported.played, { ...options }),
    refusals: persusafetyTaskRefusals(records, { ...options }),
    differences: persusafetyConditionComparison(reported.played, { ...options }),
  };
  return {
    id: PERSUSAFETY_PROTOCOL,
    title: 'PersuSafety: how ethically does a model persuade?',
    paragraphs: persusafetyParagraphs(computed),
    tables: tablesOf(computed),
    json: figuresJson(computed),
    modelColumns: persusafetyModelColumns(records, { ...options }),
  };
}

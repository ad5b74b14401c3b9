import { isPersonAgent } from '../domain/person-agent.js';
import type { ConversationSample } from '../metrics/conversation-samples.js';
import { THIN_LIMITS } from '../metrics/intervals/claim-estimates.js';
import { capToClaimSet } from '../metrics/intervals/power.js';
import type { SequentialSummary } from '../metrics/sequential/sequential-replay.js';
import type { TournamentAnalysis } from '../metrics/tournament-analysis.js';
import { claimSetBounds } from './claim-set-bounds.js';
import { createModelLabels } from './model-labels.js';
import { modelSamplingOf, protocolSectionsJson } from './protocols/protocol-sections.js';
import {
  REPORT_SCHEMA_VERSION,
  type ReportDocument,
  type ReportDuplicates,
  type ReportProtocolSection,
  type ReportRun,
  type ReportStudies,
  type SampleDialogue,
} from './report-document.js';
import { runAliases } from './run-aliases.js';
import { disputeText } from './texts/dispute-text.js';
import { duplicatesSentence } from './texts/duplicates-text.js';

/** What the report knows besides the records: the runs, and when and by what it is written. */
export interface ReportContext {
  readonly runs: readonly ReportRun[];
  readonly generatedAt: string;
  readonly packageVersion: string;
  /** Conversations of combined runs left out because an earlier run had them; each report format states them. */
  readonly duplicates?: readonly ReportDuplicates[];
  readonly notes?: readonly string[];
  /** The validation studies' results, analysed by the caller from the store. */
  readonly studies?: ReportStudies;
  /** A run made with `--until settled`: its stopping rule replayed over its records (`sequential-report.ts`). */
  readonly sequential?: SequentialSummary;
  /**
   * Protocol runs reported beside the tournament (`--run a,b` with b an APE run): listed with the runs and their
   * aliases, each with its section (docs/design/protocols.md, "Report").
   */
  readonly protocols?: { readonly runs: readonly ReportRun[]; readonly sections: ReportProtocolSection[] };
}

/** CC BY-NC-SA and its kind: data that may not be used commercially. */
function isNonCommercial(license: string): boolean {
  return /\bNC\b|non-?commercial/i.test(license);
}

function toDialogue({ kind, record }: ConversationSample): SampleDialogue {
  return {
    kind,
    run: record.run,
    conversationId: record.conversationId,
    domain: record.domain,
    setting: record.setting,
    persuader: record.persuader,
    persuadee: record.persuadee,
    claim: record.claim,
    question: record.question,
    initialScore: record.initialScore,
    finalScore: record.finalScore,
    normalizedChange: record.normalizedChange,
    earlyStopped: record.earlyStopped,
    turns: record.turns.map((turn) => {
      const difference = record.imported?.differences.find((entry) => entry.turn === turn.index);
      return {
        index: turn.index,
        role: turn.role,
        kind: turn.kind,
        message: turn.message,
        score: turn.score,
        attempts: turn.attempts.length,
        ...(difference && record.imported ? { dispute: disputeText(difference, record.imported.labelMatch) } : {}),
      };
    }),
  };
}

function notesOf(analysis: TournamentAnalysis): string[] {
  const notes: string[] = [];
  for (const group of analysis.groups) {
    if (group.turnsPlanned.length > 1) {
      notes.push(
        `${group.domain} ${group.setting}-turn pools conversations of ${group.turnsPlanned.join(' and ')} turns (runs with different --turns were combined)`,
      );
    }
    if (group.failed > 0)
      notes.push(`${group.domain} ${group.setting}-turn: ${group.failed} of ${group.conversations} conversations failed and are not scored`);
  }
  return notes;
}

/** What a reader of a sequential run's report must know about its other intervals. */
const SEQUENTIAL_NOTE =
  'this run stopped sequentially (--until settled): it chose how many claims to run from the data, so the fixed-design intervals of this report are not valid for it; use the anytime-valid intervals of meta.sequential (the "Sequential stopping" section)';

/** Assembles report.json from one streaming analysis and the runs behind it. */
export function buildReportDocument(analysis: TournamentAnalysis, context: ReportContext): ReportDocument {
  const labels = createModelLabels(analysis.models);
  const { models, claimSets, intervals, conversations, samples, ...results } = analysis;
  const resampled = intervals.method !== 't';
  const duplicates = (context.duplicates ?? []).filter((entry) => entry.conversations > 0);
  const claimSetOf = claimSetBounds(claimSets, context.runs);
  // People are not aliases of a run: no provider, no model id.
  const modelsSeen = models.filter((entry) => !isPersonAgent(entry.model)).map((entry) => ({ model: entry.model, simulated: labels.isSimulated(entry.model) }));
  const runs = [...context.runs, ...(context.protocols?.runs ?? [])];
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    meta: {
      runs,
      generatedAt: context.generatedAt,
      generatedBy: `pmiyc ${context.packageVersion}`,
      conversations,
      duplicatesSkipped: duplicates.reduce((total, entry) => total + entry.conversations, 0),
      duplicates: duplicates.map((entry) => ({ ...entry })),
      models: [...models]
        .sort((a, b) => a.model.localeCompare(b.model))
        .map((entry) => ({ ...entry, simulated: labels.isSimulated(entry.model), label: labels.text(entry.model) })),
      aliases: runAliases(runs, modelsSeen, modelSamplingOf(context.protocols?.sections ?? [])),
      simulatedAgents: models.some((entry) => labels.isSimulated(entry.model)),
      settings: analysis.groups.map((group) => ({ domain: group.domain, setting: group.setting, turnsPlanned: group.turnsPlanned })),
      claimSets: claimSets.map((set) => ({ ...set, nonCommercial: isNonCommercial(set.license) })),
      intervals: {
        method: intervals.method,
        confidence: intervals.confidence,
        unit: 'claim',
        replicates: resampled ? intervals.replicates : null,
        seed: resampled ? intervals.seed : null,
        thinBelow: { ...THIN_LIMITS },
      },
      notes: [
        ...(duplicates.length > 0 ? [duplicatesSentence(duplicates)] : []),
        ...(context.notes ?? []),
        ...notesOf(analysis),
        ...(context.sequential ? [SEQUENTIAL_NOTE] : []),
      ],
      ...(context.sequential ? { sequential: context.sequential } : {}),
    },
    ...results,
    power: results.power.map((plan) => capToClaimSet(plan, claimSetOf.get(plan.domain) ?? null)),
    samples: samples.map(toDialogue),
    studies: context.studies ?? {},
    ...(context.protocols ? { protocols: context.protocols.sections } : {}),
  };
}

/** A report's JSON text: NaN (no data) becomes null, numbers keep full precision. */
export const reportJsonText = (written: unknown): string =>
  `${JSON.stringify(written, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`;

/** report.json text: `claims.pairs` goes to claim-pairs.csv instead; a protocol section gives its protocol's JSON. */
export function reportJson(document: ReportDocument): string {
  const { pairs: _claimPairs, ...claims } = document.claims;
  const runs = document.meta.runs.map(({ runConfig: _read, ...run }) => run);
  const protocols = document.protocols ? { protocols: protocolSectionsJson(document.protocols) } : {};
  return reportJsonText({ ...document, meta: { ...document.meta, runs }, claims, ...protocols });
}

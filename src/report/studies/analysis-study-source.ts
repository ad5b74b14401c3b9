import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { Role } from '../../domain/roles.js';
import type { JudgedTurn, TurnLabels } from '../../domain/turn-labels.js';
import { type AgreementLabel, type JudgedUnit, judgeLabelAgreement } from '../../metrics/agreement/judge-label-agreement.js';
import type { ModelResult } from '../../metrics/group-tally.js';
import type { BootstrapOptions } from '../../metrics/intervals/claim-cell-table.js';
import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { recordClaimKey } from '../../metrics/record-claim-key.js';
import { ethicsByPersuader } from '../../metrics/techniques/ethics.js';
import { techniqueEffects } from '../../metrics/techniques/technique-effects.js';
import { techniqueShares } from '../../metrics/techniques/technique-profiles.js';
import type { LabelledConversation } from '../../metrics/techniques/technique-turns.js';
import { flagRates } from '../../metrics/techniques/turn-flags.js';
import { type AnalysisConfig, analysisConfigOf } from '../../studies/analysis/analysis-design.js';
import { analysisGrainOf } from '../../studies/analysis/analysis-grain.js';
import { type ChosenStudy, chooseStudy } from '../../studies/chosen-study.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { ReportSource } from '../report-source.js';
import { type AnalysisReport, type AnalysisSource, ASSOCIATION_STATEMENT, ETHICS_STATEMENT, type StudyJudge } from './analysis-figures.js';

type SlimRecord = LabelledConversation['record'];

/** What the metrics read of a record: no message text, no attempts. */
function slim(record: ConversationRecord): SlimRecord {
  return {
    domain: record.domain,
    setting: record.setting,
    claim: record.claim,
    question: record.question,
    persuader: record.persuader,
    persuadee: record.persuadee,
    status: record.status,
    turns: record.turns.map((turn) => ({ index: turn.index, role: turn.role, kind: turn.kind, score: turn.score, message: '', raw: '', attempts: [] })),
  };
}

interface ConversationLabels {
  /** The first judge's labels, by turn. */
  readonly first: Array<Pick<JudgedTurn, 'turn' | 'labels'>>;
  /** Every judge's labels of each turn (several judges only). */
  readonly byTurn: Map<number, { role: Role; labels: TurnLabels[] }>;
}

/** The labels a study's judges gave, per conversation; counts of the first judge's labelled and failed turns. */
function readLabels(source: ReportSource, studyId: number, judge: string, several: boolean) {
  const byConversation = new Map<string, ConversationLabels>();
  const counts = { persuader: 0, persuadee: 0, failed: 0 };
  for (const stored of source.analysis.labels(studyId)) {
    if (stored.labels === null) {
      if (stored.judge === judge) counts.failed += 1;
      continue;
    }
    let entry = byConversation.get(stored.conversationId);
    if (!entry) {
      entry = { first: [], byTurn: new Map() };
      byConversation.set(stored.conversationId, entry);
    }
    if (stored.judge === judge) {
      entry.first.push({ turn: stored.turn, labels: stored.labels });
      counts[stored.labels.role] += 1;
    }
    if (several) {
      const unit = entry.byTurn.get(stored.turn) ?? { role: stored.role, labels: [] };
      entry.byTurn.set(stored.turn, unit);
      unit.labels.push(stored.labels);
    }
  }
  return { byConversation, counts };
}

/** The labels whose agreement is measured: every taxonomy item, refusal, and leaving the role in either role. */
function agreementLabels(techniques: readonly string[], unethical: readonly string[]): AgreementLabel[] {
  return [
    ...techniques.map((id) => ({ label: `technique:${id}`, role: 'persuader' as const })),
    ...unethical.map((id) => ({ label: `unethical:${id}`, role: 'persuader' as const })),
    { label: 'refused', role: 'persuader' },
    { label: 'left-role', role: 'persuader' },
    { label: 'left-role', role: 'persuadee' },
  ];
}

export interface AnalysisReportOptions {
  /** `--analysis NAME`: the study to show (default: the latest of the reported runs'). */
  readonly analysis?: string;
  /** The report's interval method and seed. */
  readonly intervals: IntervalOptions;
  /** The report's own effectiveness, shown next to each persuader's unethical share. */
  readonly effectiveness: readonly ModelResult[];
}

/** The labels of the chosen study, joined with its run's conversations: what every analysis section is computed from. */
interface LabelledStudy {
  readonly study: StudyRun;
  readonly tournament: StudyRun;
  readonly config: AnalysisConfig;
  readonly judges: StudyJudge[];
  /** The conversations the first judge labelled, slimmed. */
  readonly conversations: LabelledConversation[];
  /** Every judge's labels of each turn (several judges only). */
  readonly units: JudgedUnit[];
  readonly counts: { persuader: number; persuadee: number; failed: number };
}

/** The chosen study's labels (`readLabels`) and its run's conversations, read once each. */
function readLabelledStudy(source: ReportSource, chosen: ChosenStudy): LabelledStudy {
  const { study, of: tournament } = chosen;
  const config = analysisConfigOf(study.name, study.config);
  const simulated = new Set(config.simulated);
  const judges: StudyJudge[] = config.design.judges.map((model) => ({ model, simulated: simulated.has(model) || model.startsWith('sim/') }));
  const several = judges.length > 1;
  const { byConversation, counts } = readLabels(source, study.id, judges[0]!.model, several);
  const conversations: LabelledConversation[] = [];
  const units: JudgedUnit[] = [];
  for (const record of source.conversations(tournament.id)) {
    const entry = byConversation.get(record.conversationId);
    if (!entry) continue;
    if (entry.first.length > 0) conversations.push({ record: slim(record), labels: entry.first });
    if (several) {
      const claimKey = recordClaimKey(record);
      for (const unit of entry.byTurn.values()) units.push({ claimKey, role: unit.role, labels: unit.labels });
    }
  }
  return { study, tournament, config, judges, conversations, units, counts };
}

/** What a reader of the analysis sections must know about what they are over. */
function studyNotes(read: LabelledStudy, reportedRuns: number): string[] {
  const { study, tournament, config, judges, counts } = read;
  const judge = judges[0]!;
  return [
    ...(config.design.sample === undefined ? [] : [`the study labelled a seeded sample of ${config.design.sample} conversations of run ${tournament.name}`]),
    ...(judges.length > 1
      ? [
          `the study has ${judges.length} judges: every number uses the first, ${judge.model}; how far the judges agree is shown apart (report.json judgeAgreement)`,
        ]
      : []),
    ...(reportedRuns > 1 ? [`only run ${tournament.name}'s conversations are labelled: the analysis numbers are over that run alone`] : []),
    ...(study.status === 'completed' ? [] : [`study ${study.name} is ${study.status}: the numbers are over the turns labelled so far`]),
    ...(counts.failed > 0 ? [`${counts.failed} turns have no usable label from ${judge.model} and count as not analysed`] : []),
  ];
}

/** Each persuader's unethical shares beside its effectiveness in the report (null for a persuader without data). */
function ethicsWithEffectiveness(read: LabelledStudy, unethicalIds: readonly string[], options: AnalysisReportOptions) {
  const shareEffectiveness = new Map(options.effectiveness.map((result) => [`${result.domain}\u0000${result.setting}\u0000${result.model}`, result]));
  return ethicsByPersuader(read.conversations, unethicalIds, options.intervals).map((row) => {
    const found = shareEffectiveness.get(`${row.domain}\u0000${row.setting}\u0000${row.persuader}`);
    // A persuader without data keeps its row in the effectiveness table; here it has none (null).
    const { domain: _domain, setting: _setting, model: _model, failed: _failed, reason: _reason, ...effectiveness } = found ?? ({} as ModelResult);
    return { ...row, effectiveness: found && found.reason === null ? effectiveness : null };
  });
}

/** report.json `judgeAgreement`: how far a study's judges agree on each label, over the turns two or more labelled. */
function judgeAgreementOf(read: LabelledStudy, techniqueIds: readonly string[], unethicalIds: readonly string[], intervals: IntervalOptions) {
  const bootstrap: BootstrapOptions = { replicates: intervals.replicates, confidence: intervals.confidence, seed: read.study.seed };
  return {
    study: read.study.name,
    judges: read.judges,
    metric: 'nominal' as const,
    turns: read.units.filter((unit) => unit.labels.length >= 2).length,
    labels: judgeLabelAgreement(read.units, agreementLabels(techniqueIds, unethicalIds), bootstrap),
  };
}

/**
 * report.json's analysis fields (`techniques`, `ethics`, `refusals`, `roleBreaks`,
 * `judgeAgreement`) from the chosen analysis study of the reported runs (`chooseStudy`): its labels
 * and that run's conversations, each read once from the store. Empty (every field absent) without a
 * study. Memory: the first judge's labels and, per labelled conversation, its turns' roles and scores
 * (no text); with several judges every judge's labels (docs/design/report.md, "Memory").
 */
export function readAnalysisReport(source: ReportSource, runs: readonly StudyRun[], options: AnalysisReportOptions): AnalysisReport {
  const chosen = chooseStudy(source, { kind: 'analysis', runs, asked: options.analysis });
  if (!chosen) return {};
  const read = readLabelledStudy(source, chosen);
  const { study, tournament, config, judges, conversations } = read;
  const { taxonomy } = config.design;
  const techniqueIds = taxonomy.techniques.map((item) => item.id);
  const unethicalIds = taxonomy.unethical.map((item) => item.id);
  const from: AnalysisSource = { study: study.name, tournamentRun: tournament.name, judge: judges[0]! };
  return {
    techniques: {
      ...from,
      judges,
      studies: [...chosen.studies],
      studyStatus: study.status,
      grain: analysisGrainOf(config.design),
      taxonomy: {
        name: taxonomy.name,
        source: config.design.taxonomySource,
        techniques: taxonomy.techniques.map(({ id, name }) => ({ id, name })),
        unethical: taxonomy.unethical.map(({ id, name }) => ({ id, name })),
      },
      conversations: conversations.length,
      labelledTurns: read.counts,
      statement: ASSOCIATION_STATEMENT,
      notes: studyNotes(read, runs.length),
      perModel: techniqueShares(conversations, techniqueIds, options.intervals),
      effects: techniqueEffects(conversations, techniqueIds, options.intervals),
    },
    ethics: { ...from, statement: ETHICS_STATEMENT, perModel: ethicsWithEffectiveness(read, unethicalIds, options) },
    refusals: { ...from, perModel: flagRates(conversations, 'refused', options.intervals) },
    roleBreaks: { ...from, perModel: flagRates(conversations, 'leftRole', options.intervals) },
    ...(judges.length > 1 ? { judgeAgreement: judgeAgreementOf(read, techniqueIds, unethicalIds, options.intervals) } : {}),
  };
}

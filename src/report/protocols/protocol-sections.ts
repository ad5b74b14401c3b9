import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import type { ProtocolFigures, ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import type { ProtocolRecords } from '../../studies/protocol-records.js';
import { recordedModelsOf, type StudyRun } from '../../studies/run-config.js';
import { createModelLabels } from '../model-labels.js';
import { type ProtocolRunsDocument, REPORT_SCHEMA_VERSION, type ReportProtocolSection, type ReportRun } from '../report-document.js';
import { runAliases } from '../run-aliases.js';

/**
 * The report's side of a protocol's runs (docs/design/protocols.md, "Report"): each run's section, made by its
 * protocol (found through the lookup the CLI passes, since report/ may not import a protocol) from the run's
 * stored records, and the document of a report whose runs are all protocol runs.
 */

/** Whether a run is a protocol's (APE, ...) rather than a tournament's or a study's. */
export const isProtocolRun = (run: StudyRun): boolean => run.config.kind === 'protocol';

/** The models a protocol run recorded, each with whether it is a simulated agent, by name. */
function protocolModelsOf(run: StudyRun): ReportProtocolSection['models'] {
  if (run.config.kind !== 'protocol') return [];
  const recorded = recordedModelsOf(run.config);
  const simulated = new Set(run.config.simulated);
  const names = [...new Set([...Object.keys(recorded), ...simulated])].sort((a, b) => a.localeCompare(b));
  return names.map((model) => ({ model, simulated: simulated.has(model) || recorded[model]?.provider === 'sim' }));
}

/**
 * The run's figures with, after them, the agreement of each study in which another judge labelled its items again
 * (oldest first; `ProtocolOutputs.judgeAgreement`): their paragraphs and tables appended, their JSON as
 * `judgeAgreement` in the section's.
 */
function withJudgeAgreements(figures: ProtocolFigures, agreements: readonly ProtocolFigures[]): ProtocolFigures {
  if (agreements.length === 0) return figures;
  const json = typeof figures.json === 'object' && figures.json !== null ? figures.json : { figures: figures.json };
  return {
    ...figures,
    paragraphs: [...figures.paragraphs, ...agreements.flatMap((agreement) => agreement.paragraphs)],
    tables: [...figures.tables, ...agreements.flatMap((agreement) => agreement.tables)],
    json: { ...json, judgeAgreement: agreements.map((agreement) => agreement.json) },
  };
}

/**
 * One protocol run's section: its records (in item order) measured by its protocol with the report's interval
 * method and replicates, at the run's own seed, so a section reads the same alone or beside other runs.
 */
export function protocolSectionOf(
  source: { readonly protocolRecords: Pick<ProtocolRecords, 'list' | 'analysisNames'>; findRun(name: string): StudyRun },
  run: StudyRun,
  protocolOutputsOf: ProtocolOutputsLookup,
  intervals: Pick<IntervalOptions, 'method' | 'replicates' | 'confidence'>,
): ReportProtocolSection {
  if (run.config.kind !== 'protocol') throw new TypeError(`run ${run.name} is not a protocol's run`);
  const outputs = protocolOutputsOf(run.config.protocol);
  const records = [...source.protocolRecords.list(run.id)];
  const options = { method: intervals.method, replicates: intervals.replicates, confidence: intervals.confidence, seed: run.seed };
  const { judgeAgreement } = outputs;
  const studies = judgeAgreement === undefined ? [] : source.protocolRecords.analysisNames(run.name).map((name) => source.findRun(name));
  const agreements = studies.map((study) => judgeAgreement!(run, records, { run: study, records: source.protocolRecords.list(study.id) }, options));
  const figures = withJudgeAgreements(outputs.figures(run, records, options), agreements);
  const modelSampling = outputs.modelSampling?.(run);
  return {
    run: run.name,
    protocol: run.config.protocol,
    models: protocolModelsOf(run),
    conversations: records.length,
    figures,
    ...(modelSampling === undefined ? {} : { modelSampling }),
  };
}

/** Every model of the sections, once, simulated when any run says so. */
export function sectionModels(sections: readonly ReportProtocolSection[]): ReportProtocolSection['models'] {
  const simulated = new Map<string, boolean>();
  for (const { model, simulated: isSimulated } of sections.flatMap((section) => section.models))
    simulated.set(model, (simulated.get(model) ?? false) || isSimulated);
  return [...simulated].sort(([a], [b]) => a.localeCompare(b)).map(([model, isSimulated]) => ({ model, simulated: isSimulated }));
}

/** Each section's sampling by model, by run name, for "What ran". */
export const modelSamplingOf = (sections: readonly ReportProtocolSection[]) => new Map(sections.map((section) => [section.run, section.modelSampling]));

/** The document of a report whose runs are all protocol runs: what ran, and each run's section. */
export function protocolRunsDocument(
  runs: readonly ReportRun[],
  sections: ReportProtocolSection[],
  context: { readonly generatedAt: string; readonly packageVersion: string },
): ProtocolRunsDocument {
  const models = sectionModels(sections);
  const labels = createModelLabels(models);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'protocols',
    meta: {
      runs: [...runs],
      generatedAt: context.generatedAt,
      generatedBy: `pmiyc ${context.packageVersion}`,
      conversations: sections.reduce((total, section) => total + section.conversations, 0),
      models: models.map((entry) => ({ ...entry, simulated: labels.isSimulated(entry.model), label: labels.text(entry.model) })),
      aliases: runAliases(runs, models, modelSamplingOf(sections)),
      simulatedAgents: models.some((entry) => labels.isSimulated(entry.model)),
      notes: [],
    },
    protocols: sections,
  };
}

/** report.json's `protocols`: each section with its protocol's JSON as `figures` (its paragraphs and tables are the documents'). */
export function protocolSectionsJson(sections: readonly ReportProtocolSection[]) {
  return sections.map((section) => ({
    run: section.run,
    protocol: section.protocol,
    title: section.figures.title,
    models: section.models,
    conversations: section.conversations,
    figures: section.figures.json,
  }));
}

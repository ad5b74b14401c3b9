import { InputError } from '../../domain/errors/input-error.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { createModelLabels } from '../../report/model-labels.js';
import type { AcrossProtocols } from '../../report/protocols/across-protocols-shape.js';
import { ACROSS_INTRO, acrossNotes, correlationsText } from '../../report/protocols/across-protocols-tables.js';
import { sectionModels } from '../../report/protocols/protocol-sections.js';
import { isProtocolRunsDocument } from '../../report/report-document.js';
import type { ReportSource } from '../../report/report-source.js';
import { buildRunsReport } from '../../report/runs-report.js';
import type { ProtocolEstimateCell, ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { AcrossAnswer, AcrossCell } from '../wire/across-answers.js';

/**
 * The viewer's table across protocols (`GET /api/across?runs=a,b,c`): the report of those runs made by the report's
 * own code (`buildRunsReport`, t intervals as `pmiyc report` gives by default), and its table across protocols
 * handed to the page as plain numbers with the report's words, so the page and the report show the same figures.
 */

export type AcrossSource = ReportSource & { findRun(name?: string, kind?: 'tournament' | 'protocol'): StudyRun };

/** Asks for the table of some runs: the answer, or an InputError (unknown run, fewer than two protocols). */
export type AcrossReader = (runNames: readonly string[]) => AcrossAnswer;

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

const cellOf = (cell: ProtocolEstimateCell): AcrossCell => ({
  estimate: finite(cell.estimate),
  ciLow: finite(cell.ciLow),
  ciHigh: finite(cell.ciHigh),
  n: cell.n,
  thin: cell.thin ?? false,
  reason: cell.reason ?? null,
});

function answerOf(runs: readonly string[], across: AcrossProtocols, simulated: (model: string) => boolean): AcrossAnswer {
  return {
    runs,
    intro: ACROSS_INTRO,
    columns: across.columns.map(({ id, title, protocol, unit, runs: from }) => ({ id, title, protocol, unit, runs: from })),
    rows: across.rows.map((row) => ({
      model: row.model,
      simulated: simulated(row.model),
      cells: row.cells.map((cell) => (cell === null ? null : cellOf(cell))),
    })),
    notes: acrossNotes(across),
    correlationsText: correlationsText(across),
    correlations: across.correlations.map((entry) => ({ ...entry, rho: finite(entry.rho), ciLow: finite(entry.ciLow), ciHigh: finite(entry.ciHigh) })),
    minimumModels: across.minimumModels,
  };
}

const TABLES_KEPT = 8;

/** The reader of a store: each answer made once per runs named and kept while their stored counts stay the same. */
export function acrossProtocolsReader(
  source: AcrossSource & { countConversations(runId: number): number; protocolRecords: { count(runId: number): number } },
  options: { readonly protocolOutputsOf: ProtocolOutputsLookup; readonly packageVersion: string; readonly now: () => Date },
): AcrossReader {
  const kept = new Map<string, { readonly counts: string; readonly answer: AcrossAnswer }>();
  return (runNames) => {
    const runs = runNames.map((name) => source.findRun(name));
    const counts = runs.map((run) => `${source.countConversations(run.id)}/${source.protocolRecords.count(run.id)}`).join(' ');
    const key = runNames.join('\u0000');
    const cached = kept.get(key);
    if (cached?.counts === counts) return cached.answer;
    const report = buildRunsReport(source, runNames, {
      replicates: DEFAULT_INTERVALS.replicates,
      generatedAt: options.now().toISOString(),
      packageVersion: options.packageVersion,
      protocolOutputsOf: options.protocolOutputsOf,
    });
    const { document } = report;
    if (document.acrossProtocols === undefined)
      throw new InputError(`runs ${runNames.join(', ')} hold fewer than two protocols (a tournament counts as PMIYC's): name runs of two protocols or more`);
    const models = isProtocolRunsDocument(document) ? document.meta.models : [...document.meta.models, ...sectionModels(document.protocols ?? [])];
    const labels = createModelLabels(models);
    const answer = answerOf(runNames, document.acrossProtocols, (model) => labels.isSimulated(model));
    // A few tables are kept, as the viewer keeps its comparisons: each is a few rows per model.
    if (kept.size >= TABLES_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, { counts, answer });
    return answer;
  };
}

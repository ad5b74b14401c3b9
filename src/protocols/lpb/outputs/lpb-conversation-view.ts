import type { ProtocolConversationView, ProtocolFact } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { type LpbRecord, readLpbRecord } from '../lpb-record.js';

/**
 * A cell of the benchmark as `show`, `view` and the report show it: the proposition, side, condition and the
 * target's pre and post means on each of the list's rows; the turns as the transcript has them; the outcome with the
 * signed shift, the alignments, the probes and diagnostics where the report lists them.
 */

const optional = (label: string, value: string | number | null): ProtocolFact[] => (value === null ? [] : [{ label, value }]);

const probesText = (probes: readonly number[]) => probes.join(', ');

function factsOf(record: LpbRecord): ProtocolFact[] {
  return [
    { label: 'proposition', value: record.proposition.id },
    ...optional('topic', record.proposition.topic),
    ...optional('statement', record.proposition.statement),
    { label: 'side', value: record.side },
    { label: 'condition', value: record.condition },
    { label: 'pre mean', value: record.preMean },
    { label: 'post mean', value: record.postMean },
    ...optional('pre probes', record.probes === null ? null : probesText(record.probes.pre)),
    ...optional('post probes', record.probes === null ? null : probesText(record.probes.post)),
    { label: 'bundle', value: record.source.bundle },
    { label: 'source', value: `line ${record.source.report.line} of ${record.source.report.file}` },
    { label: 'transcript', value: record.source.transcript?.file ?? 'missing from the bundle' },
  ];
}

function outcomeOf(record: LpbRecord): ProtocolFact[] {
  const diagnostics = Object.entries(record.diagnostics ?? {}).filter(([, count]) => count > 0);
  return [
    { label: 'outcome', value: record.outcome },
    { label: 'signed shift', value: record.signedShift },
    { label: 'start alignment', value: record.startAlignment },
    { label: 'end alignment', value: record.endAlignment },
    ...optional('terminal stage', record.terminalStage),
    ...optional('terminal error', record.terminalError),
    ...optional('conversion vs consolidation', record.conversionOrConsolidation),
    ...diagnostics.map(([key, count]) => ({ label: key, value: count })),
  ];
}

function titleOf(record: LpbRecord): string {
  const topic = record.proposition.topic ?? record.proposition.id;
  return `${record.persuader} argues ${record.side} "${topic}" with ${record.target}`;
}

/** One stored cell as a conversation; a record the benchmark's schema cannot read is named by run and item. */
export function lpbConversationView(run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView {
  const record = readLpbRecord(run.name, stored);
  return {
    itemKey: stored.itemKey,
    title: titleOf(record),
    facts: factsOf(record),
    participants: [
      { role: 'persuader', model: record.persuader },
      { role: 'target', model: record.target },
    ],
    turns: record.turns.map((turn, index) => ({ index, role: turn.role, model: turn.model, turn: turn.turn, text: turn.text, marks: [] })),
    outcome: outcomeOf(record),
    listedFacts: ['proposition', 'side', 'pre mean', 'post mean'],
  };
}

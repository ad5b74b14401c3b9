import { stringify } from 'csv-stringify/sync';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { isPersonAgent } from '../domain/person-agent.js';
import type { AgentParts } from './agent-variants.js';
import type { ExportFormat } from './report-formats.js';

/** Agents as models under the default prompts: a run without variants. */
const WITHOUT_VARIANTS = (agent: string): AgentParts => ({ baseModel: agent, variant: 'default' });

const PERSON_PARTS: AgentParts = { baseModel: '', variant: '' };

type Column = [string, (record: ConversationRecord, parts: (agent: string) => AgentParts) => unknown];

/** One CSV row per conversation: the export line without its turns, then each agent's model and prompt variant. */
const CSV_COLUMNS: readonly Column[] = [
  ['run', (record) => record.run],
  ['conversationId', (record) => record.conversationId],
  ['domain', (record) => record.domain],
  ['setting', (record) => record.setting],
  ['turnsPlanned', (record) => record.turnsPlanned],
  ['repetition', (record) => record.repetition],
  ['claimIndex', (record) => record.claimIndex],
  ['claim', (record) => record.claim],
  ['question', (record) => record.question],
  ['origin', (record) => record.origin],
  ['license', (record) => record.license],
  ['persuader', (record) => record.persuader],
  ['persuadee', (record) => record.persuadee],
  ['persuaderSimulated', (record) => record.simulated.persuader],
  ['persuadeeSimulated', (record) => record.simulated.persuadee],
  ['status', (record) => record.status],
  ['failureReason', (record) => record.failureReason],
  ['failedTurn', (record) => record.failedTurn],
  ['failedRole', (record) => record.failedRole],
  ['earlyStopped', (record) => record.earlyStopped],
  ['initialScore', (record) => record.initialScore],
  ['finalScore', (record) => record.finalScore],
  ['normalizedChange', (record) => record.normalizedChange],
  ['persuaderStance', (record) => record.persuaderStance],
  ['absoluteChange', (record) => record.absoluteChange],
  ['turns', (record) => record.turns.length],
  ['attempts', (record) => record.turns.reduce((total, turn) => total + turn.attempts.length, 0) + record.failedAttempts.length],
  // Added after the first columns, so that readers by position keep working (docs/design/report.md).
  ['persuaderBaseModel', (record, parts) => parts(record.persuader).baseModel],
  ['persuaderVariant', (record, parts) => parts(record.persuader).variant],
  ['persuadeeBaseModel', (record, parts) => parts(record.persuadee).baseModel],
  ['persuadeeVariant', (record, parts) => parts(record.persuadee).variant],
];

/** One CSV line (with its newline): empty cells for null and undefined, booleans as true/false. */
function csvLine(values: readonly unknown[]): string {
  return stringify([values.map((value) => (value === null || value === undefined ? '' : value))], { cast: { boolean: (value) => String(value) } });
}

/** The CSV header line of `pmiyc export --format csv`. */
export const csvHeader = (): string => csvLine(CSV_COLUMNS.map(([name]) => name));

/**
 * One conversation as an export line: its JSON record, or its CSV row. `parts` splits an agent into
 * model and variant (`agentPartsOf` of the run's config); without it every agent is a model under `default`.
 */
export function exportLine(record: ConversationRecord, format: ExportFormat, parts: (agent: string) => AgentParts = WITHOUT_VARIANTS): string {
  if (format === 'jsonl') return `${JSON.stringify(record)}\n`;
  // A person (`person/<id>`) is no model and has no prompt variant: both cells are empty.
  const agentParts = (agent: string) => (isPersonAgent(agent) ? PERSON_PARTS : parts(agent));
  return csvLine(CSV_COLUMNS.map(([, value]) => value(record, agentParts)));
}

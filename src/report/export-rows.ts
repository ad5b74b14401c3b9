import { stringify } from 'csv-stringify/sync';
import type { Turn } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { isPersonAgent } from '../domain/person-agent.js';
import type { TurnTags } from '../studies/analysis/turn-tags.js';
import type { AgentColumns } from './agent-variants.js';
import type { ExportFormat } from './report-formats.js';

/** Agents as models under the default prompts, with nothing recorded: a run without variants or stored models. */
const WITHOUT_VARIANTS = (agent: string): AgentColumns => ({ baseModel: agent, variant: 'default', provider: null, modelId: null });

/** A person (`person/<id>`) is no model and has no prompt variant: their cells are empty. */
const PERSON_COLUMNS: AgentColumns = { baseModel: '', variant: '', provider: null, modelId: null };
const withPeople =
  (agents: (agent: string) => AgentColumns) =>
  (agent: string): AgentColumns =>
    isPersonAgent(agent) ? PERSON_COLUMNS : agents(agent);

type Column = [string, (record: ConversationRecord, agents: (agent: string) => AgentColumns) => unknown];

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
  ['persuaderBaseModel', (record, agents) => agents(record.persuader).baseModel],
  ['persuaderVariant', (record, agents) => agents(record.persuader).variant],
  ['persuadeeBaseModel', (record, agents) => agents(record.persuadee).baseModel],
  ['persuadeeVariant', (record, agents) => agents(record.persuadee).variant],
  // Added with issue 32, after those.
  ['persuaderProvider', (record, agents) => agents(record.persuader).provider],
  ['persuaderModelId', (record, agents) => agents(record.persuader).modelId],
  ['persuadeeProvider', (record, agents) => agents(record.persuadee).provider],
  ['persuadeeModelId', (record, agents) => agents(record.persuadee).modelId],
];

/** One CSV line (with its newline): empty cells for null and undefined, booleans as true/false. */
function csvLine(values: readonly unknown[]): string {
  return stringify([values.map((value) => (value === null || value === undefined ? '' : value))], { cast: { boolean: (value) => String(value) } });
}

/** The CSV header line of `pmiyc export --format csv`. */
export const csvHeader = (): string => csvLine(CSV_COLUMNS.map(([name]) => name));

/**
 * One conversation as an export line: its JSON record, or its CSV row. `agents` splits an agent into
 * model, variant, provider and model id (`agentColumnsOf` of the run's config); without it every agent
 * is a model under `default` with no recorded provider.
 */
export function exportLine(
  record: ConversationRecord,
  format: Exclude<ExportFormat, 'turns-csv'>,
  agents: (agent: string) => AgentColumns = WITHOUT_VARIANTS,
): string {
  return format === 'jsonl' ? `${JSON.stringify(record)}\n` : csvLine(CSV_COLUMNS.map(([, value]) => value(record, withPeople(agents))));
}

/** One turn with what its conversation and the first judge of an analysis study say around it. */
interface TurnRow {
  readonly record: ConversationRecord;
  readonly turn: Turn;
  readonly agents: (agent: string) => AgentColumns;
  /** The first judge's tags of the turn; undefined when the run has no analysis study or the judge did not label the turn. */
  readonly tags: TurnTags['judges'][number] | undefined;
  /** The analysis study read; null when the run has none. */
  readonly study: string | null;
}

/** Sums a usage field over a turn's attempts; null when no attempt reported it. */
function usageSum(turn: Turn, field: 'inputTokens' | 'outputTokens' | 'cachedInputTokens'): number | null {
  const reported = turn.attempts.flatMap((attempt) => (attempt.usage?.[field] === undefined ? [] : [attempt.usage[field]]));
  return reported.length === 0 ? null : reported.reduce((total, value) => total + value, 0);
}

function costSum(turn: Turn): number | null {
  const reported = turn.attempts.flatMap((attempt) => (attempt.costUsd === undefined ? [] : [attempt.costUsd]));
  return reported.length === 0 ? null : reported.reduce((total, value) => total + value, 0);
}

const agentOfTurn = (row: TurnRow) => (row.turn.role === 'persuader' ? row.record.persuader : row.record.persuadee);
const ids = (items: ReadonlyArray<{ id: string }> | undefined) => items?.map((item) => item.id).join(';') ?? null;

/** `pmiyc export --format turns-csv`: one row per accepted turn (docs/design/report.md, "Per-turn CSV"). */
const TURN_COLUMNS: ReadonlyArray<[string, (row: TurnRow) => unknown]> = [
  ['run', ({ record }) => record.run],
  ['conversationId', ({ record }) => record.conversationId],
  ['domain', ({ record }) => record.domain],
  ['setting', ({ record }) => record.setting],
  ['turnsPlanned', ({ record }) => record.turnsPlanned],
  ['repetition', ({ record }) => record.repetition],
  ['claimIndex', ({ record }) => record.claimIndex],
  ['persuader', ({ record }) => record.persuader],
  ['persuadee', ({ record }) => record.persuadee],
  ['persuaderSimulated', ({ record }) => record.simulated.persuader],
  ['persuadeeSimulated', ({ record }) => record.simulated.persuadee],
  ['status', ({ record }) => record.status],
  ['normalizedChange', ({ record }) => record.normalizedChange],
  ['turn', ({ turn }) => turn.index],
  ['role', ({ turn }) => turn.role],
  ['kind', ({ turn }) => turn.kind],
  ['agent', agentOfTurn],
  ['agentSimulated', (row) => (row.turn.role === 'persuader' ? row.record.simulated.persuader : row.record.simulated.persuadee)],
  ['baseModel', (row) => row.agents(agentOfTurn(row)).baseModel],
  ['variant', (row) => row.agents(agentOfTurn(row)).variant],
  ['provider', (row) => row.agents(agentOfTurn(row)).provider],
  ['modelId', (row) => row.agents(agentOfTurn(row)).modelId],
  ['score', ({ turn }) => turn.score],
  ['attempts', ({ turn }) => turn.attempts.length],
  ['inputTokens', ({ turn }) => usageSum(turn, 'inputTokens')],
  ['outputTokens', ({ turn }) => usageSum(turn, 'outputTokens')],
  ['cachedInputTokens', ({ turn }) => usageSum(turn, 'cachedInputTokens')],
  ['costUsd', ({ turn }) => costSum(turn)],
  ['finishReason', ({ turn }) => turn.attempts.at(-1)?.finishReason],
  ['callHash', ({ turn }) => turn.attempts.at(-1)?.callHash],
  ['analysis', ({ study }) => study],
  ['judge', ({ tags }) => tags?.judge],
  ['labelled', ({ tags, study }) => (study === null ? null : (tags?.labelled ?? false))],
  ['techniques', ({ tags }) => (tags?.labelled ? ids(tags.techniques) : null)],
  ['unethical', ({ tags }) => (tags?.labelled ? ids(tags.unethical) : null)],
  ['refused', ({ tags }) => (tags?.labelled ? tags.refused : null)],
  ['leftRole', ({ tags }) => (tags?.labelled ? tags.leftRole : null)],
  ['message', ({ turn }) => turn.message],
];

/** The header line of `pmiyc export --format turns-csv`. */
export const turnsCsvHeader = (): string => csvLine(TURN_COLUMNS.map(([name]) => name));

/**
 * A conversation's turns as `turns-csv` lines (one per accepted turn; a failed conversation gives the turns it
 * completed). `tags` are the study's tags per turn (`turnTagsOf`), the first judge's read.
 */
export function turnLines(
  record: ConversationRecord,
  agents: (agent: string) => AgentColumns,
  study: { readonly name: string; readonly judge: string; readonly tags: readonly TurnTags[] } | null,
): string {
  const byTurn = new Map(study?.tags.map((entry) => [entry.turn, entry.judges.find((judge) => judge.judge === study.judge)]) ?? []);
  return record.turns
    .map((turn) =>
      csvLine(TURN_COLUMNS.map(([, value]) => value({ record, turn, agents: withPeople(agents), tags: byTurn.get(turn.index), study: study?.name ?? null }))),
    )
    .join('');
}

import type { Turn } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { isPersonAgent } from '../../domain/person-agent.js';
import type { TurnTags } from '../../studies/analysis/turn-tags.js';
import type { AgentColumns } from '../agent-variants.js';
import type { ExportFormat } from '../report-formats.js';
import { type CsvColumn, csvHeaderLine, csvRowLine } from './csv-table.js';

/** Agents as models under the default prompts, with nothing recorded: a run without variants or stored models. */
const WITHOUT_VARIANTS = (agent: string): AgentColumns => ({ baseModel: agent, variant: 'default', provider: null, modelId: null });

/** A person (`person/<id>`) is no model and has no prompt variant: their cells are empty. */
const PERSON_COLUMNS: AgentColumns = { baseModel: '', variant: '', provider: null, modelId: null };
const withPeople =
  (agents: (agent: string) => AgentColumns) =>
  (agent: string): AgentColumns =>
    isPersonAgent(agent) ? PERSON_COLUMNS : agents(agent);

/** A conversation with the split of its agents into model, variant, provider and model id. */
interface ConversationRow {
  readonly record: ConversationRecord;
  readonly agents: (agent: string) => AgentColumns;
}

/** One CSV row per conversation: the export line without its turns, then each agent's model and prompt variant. */
const CSV_COLUMNS: readonly CsvColumn<ConversationRow>[] = [
  { header: 'run', value: ({ record }) => record.run },
  { header: 'conversationId', value: ({ record }) => record.conversationId },
  { header: 'domain', value: ({ record }) => record.domain },
  { header: 'setting', value: ({ record }) => record.setting },
  { header: 'turnsPlanned', value: ({ record }) => record.turnsPlanned },
  { header: 'repetition', value: ({ record }) => record.repetition },
  { header: 'claimIndex', value: ({ record }) => record.claimIndex },
  { header: 'claim', value: ({ record }) => record.claim },
  { header: 'question', value: ({ record }) => record.question },
  { header: 'origin', value: ({ record }) => record.origin },
  { header: 'license', value: ({ record }) => record.license },
  { header: 'persuader', value: ({ record }) => record.persuader },
  { header: 'persuadee', value: ({ record }) => record.persuadee },
  { header: 'persuaderSimulated', value: ({ record }) => record.simulated.persuader },
  { header: 'persuadeeSimulated', value: ({ record }) => record.simulated.persuadee },
  { header: 'status', value: ({ record }) => record.status },
  { header: 'failureReason', value: ({ record }) => record.failureReason },
  { header: 'failedTurn', value: ({ record }) => record.failedTurn },
  { header: 'failedRole', value: ({ record }) => record.failedRole },
  { header: 'earlyStopped', value: ({ record }) => record.earlyStopped },
  { header: 'initialScore', value: ({ record }) => record.initialScore },
  { header: 'finalScore', value: ({ record }) => record.finalScore },
  { header: 'normalizedChange', value: ({ record }) => record.normalizedChange },
  { header: 'persuaderStance', value: ({ record }) => record.persuaderStance },
  { header: 'absoluteChange', value: ({ record }) => record.absoluteChange },
  { header: 'turns', value: ({ record }) => record.turns.length },
  { header: 'attempts', value: ({ record }) => record.turns.reduce((total, turn) => total + turn.attempts.length, 0) + record.failedAttempts.length },
  // Added after the first columns, so that readers by position keep working (docs/design/report.md).
  { header: 'persuaderBaseModel', value: ({ record, agents }) => agents(record.persuader).baseModel },
  { header: 'persuaderVariant', value: ({ record, agents }) => agents(record.persuader).variant },
  { header: 'persuadeeBaseModel', value: ({ record, agents }) => agents(record.persuadee).baseModel },
  { header: 'persuadeeVariant', value: ({ record, agents }) => agents(record.persuadee).variant },
  // Added with full-text search, after those.
  { header: 'persuaderProvider', value: ({ record, agents }) => agents(record.persuader).provider },
  { header: 'persuaderModelId', value: ({ record, agents }) => agents(record.persuader).modelId },
  { header: 'persuadeeProvider', value: ({ record, agents }) => agents(record.persuadee).provider },
  { header: 'persuadeeModelId', value: ({ record, agents }) => agents(record.persuadee).modelId },
];

/** The CSV header line of `pmiyc export --format csv`. */
export const csvHeader = (): string => csvHeaderLine(CSV_COLUMNS);

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
  return format === 'jsonl' ? `${JSON.stringify(record)}\n` : csvRowLine(CSV_COLUMNS, { record, agents: withPeople(agents) });
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
const TURN_COLUMNS: readonly CsvColumn<TurnRow>[] = [
  { header: 'run', value: ({ record }) => record.run },
  { header: 'conversationId', value: ({ record }) => record.conversationId },
  { header: 'domain', value: ({ record }) => record.domain },
  { header: 'setting', value: ({ record }) => record.setting },
  { header: 'turnsPlanned', value: ({ record }) => record.turnsPlanned },
  { header: 'repetition', value: ({ record }) => record.repetition },
  { header: 'claimIndex', value: ({ record }) => record.claimIndex },
  { header: 'persuader', value: ({ record }) => record.persuader },
  { header: 'persuadee', value: ({ record }) => record.persuadee },
  { header: 'persuaderSimulated', value: ({ record }) => record.simulated.persuader },
  { header: 'persuadeeSimulated', value: ({ record }) => record.simulated.persuadee },
  { header: 'status', value: ({ record }) => record.status },
  { header: 'normalizedChange', value: ({ record }) => record.normalizedChange },
  { header: 'turn', value: ({ turn }) => turn.index },
  { header: 'role', value: ({ turn }) => turn.role },
  { header: 'kind', value: ({ turn }) => turn.kind },
  { header: 'agent', value: agentOfTurn },
  { header: 'agentSimulated', value: (row) => (row.turn.role === 'persuader' ? row.record.simulated.persuader : row.record.simulated.persuadee) },
  { header: 'baseModel', value: (row) => row.agents(agentOfTurn(row)).baseModel },
  { header: 'variant', value: (row) => row.agents(agentOfTurn(row)).variant },
  { header: 'provider', value: (row) => row.agents(agentOfTurn(row)).provider },
  { header: 'modelId', value: (row) => row.agents(agentOfTurn(row)).modelId },
  { header: 'score', value: ({ turn }) => turn.score },
  { header: 'attempts', value: ({ turn }) => turn.attempts.length },
  { header: 'inputTokens', value: ({ turn }) => usageSum(turn, 'inputTokens') },
  { header: 'outputTokens', value: ({ turn }) => usageSum(turn, 'outputTokens') },
  { header: 'cachedInputTokens', value: ({ turn }) => usageSum(turn, 'cachedInputTokens') },
  { header: 'costUsd', value: ({ turn }) => costSum(turn) },
  { header: 'finishReason', value: ({ turn }) => turn.attempts.at(-1)?.finishReason },
  { header: 'callHash', value: ({ turn }) => turn.attempts.at(-1)?.callHash },
  { header: 'analysis', value: ({ study }) => study },
  { header: 'judge', value: ({ tags }) => tags?.judge },
  { header: 'labelled', value: ({ tags, study }) => (study === null ? null : (tags?.labelled ?? false)) },
  { header: 'techniques', value: ({ tags }) => (tags?.labelled ? ids(tags.techniques) : null) },
  { header: 'unethical', value: ({ tags }) => (tags?.labelled ? ids(tags.unethical) : null) },
  { header: 'refused', value: ({ tags }) => (tags?.labelled ? tags.refused : null) },
  { header: 'leftRole', value: ({ tags }) => (tags?.labelled ? tags.leftRole : null) },
  { header: 'message', value: ({ turn }) => turn.message },
];

/** The header line of `pmiyc export --format turns-csv`. */
export const turnsCsvHeader = (): string => csvHeaderLine(TURN_COLUMNS);

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
    .map((turn) => csvRowLine(TURN_COLUMNS, { record, turn, agents: withPeople(agents), tags: byTurn.get(turn.index), study: study?.name ?? null }))
    .join('');
}

import type { Turn } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { isPersonAgent } from '../../domain/person-agent.js';
import { ROLES } from '../../domain/roles.js';
import type { TurnTags } from '../../studies/analysis/turn-tags.js';
import type { AgentColumns } from '../agent-variants.js';
import type { ExportFormat } from '../report-formats.js';
import { type CsvColumn, type CsvValue, csvHeaderLine, csvRowLine } from './csv-table.js';

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

/** The fields of a conversation record that a CSV cell holds as they are. */
type ScalarField = { [Field in keyof ConversationRecord]-?: ConversationRecord[Field] extends CsvValue ? Field : never }[keyof ConversationRecord];

/** Columns of a record's fields as they are, each named after its field. */
const fieldColumns = <Row extends { readonly record: ConversationRecord }>(fields: readonly ScalarField[]): CsvColumn<Row>[] =>
  fields.map((field) => ({ header: field, value: ({ record }) => record[field] }));

/** Whether each agent is simulated: `persuaderSimulated`, `persuadeeSimulated`. */
const simulatedColumns = <Row extends { readonly record: ConversationRecord }>(): CsvColumn<Row>[] =>
  ROLES.map((role) => ({ header: `${role}Simulated`, value: ({ record }) => record.simulated[role] }));

/** Parts of each agent's split (`agents`), per role and part, named as `persuaderBaseModel`. */
const agentPartColumns = (parts: readonly (keyof AgentColumns)[]): CsvColumn<ConversationRow>[] =>
  ROLES.flatMap((role) =>
    parts.map((part) => ({
      header: `${role}${part[0]!.toUpperCase()}${part.slice(1)}`,
      value: ({ record, agents }: ConversationRow) => agents(record[role])[part],
    })),
  );

/** One CSV row per conversation: the export line without its turns, then each agent's model and prompt variant. */
const CSV_COLUMNS: readonly CsvColumn<ConversationRow>[] = [
  ...fieldColumns(['run', 'conversationId', 'domain', 'setting', 'turnsPlanned', 'repetition', 'claimIndex']),
  ...fieldColumns(['claim', 'question', 'origin', 'license', 'persuader', 'persuadee']),
  ...simulatedColumns(),
  ...fieldColumns(['status', 'failureReason', 'failedTurn', 'failedRole', 'earlyStopped', 'initialScore', 'finalScore']),
  ...fieldColumns(['normalizedChange', 'persuaderStance', 'absoluteChange']),
  { header: 'turns', value: ({ record }) => record.turns.length },
  { header: 'attempts', value: ({ record }) => record.turns.reduce((total, turn) => total + turn.attempts.length, 0) + record.failedAttempts.length },
  // Added after the first columns, so that readers by position keep working (docs/design/report.md).
  ...agentPartColumns(['baseModel', 'variant']),
  // Added with full-text search, after those.
  ...agentPartColumns(['provider', 'modelId']),
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

/** Sums a value over a turn's attempts; null when no attempt reported it. */
function attemptSum(turn: Turn, amountOf: (attempt: Turn['attempts'][number]) => number | undefined): number | null {
  const reported = turn.attempts.flatMap((attempt) => {
    const value = amountOf(attempt);
    return value === undefined ? [] : [value];
  });
  return reported.length === 0 ? null : reported.reduce((total, value) => total + value, 0);
}

const usageSum = (turn: Turn, field: 'inputTokens' | 'outputTokens' | 'cachedInputTokens') => attemptSum(turn, (attempt) => attempt.usage?.[field]);

const agentOfTurn = (row: TurnRow) => (row.turn.role === 'persuader' ? row.record.persuader : row.record.persuadee);
const ids = (items: ReadonlyArray<{ id: string }> | undefined) => items?.map((item) => item.id).join(';') ?? null;

/** `pmiyc export --format turns-csv`: one row per accepted turn (docs/design/report.md, "Per-turn CSV"). */
const TURN_COLUMNS: readonly CsvColumn<TurnRow>[] = [
  ...fieldColumns(['run', 'conversationId', 'domain', 'setting', 'turnsPlanned', 'repetition', 'claimIndex', 'persuader', 'persuadee']),
  ...simulatedColumns(),
  ...fieldColumns(['status', 'normalizedChange']),
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
  { header: 'costUsd', value: ({ turn }) => attemptSum(turn, (attempt) => attempt.costUsd) },
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

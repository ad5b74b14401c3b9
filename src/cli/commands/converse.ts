import { InputError } from '../../domain/errors/input-error.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { usageTotals } from '../../metrics/usage/usage-totals.js';
import { formatConversationHeader, formatOutcomeText, formatTurnText } from '../../report/texts/dialogue-text.js';
import { formatUsageText } from '../../report/texts/usage-text.js';
import { createModelRegistry } from '../../runner/models/model-registry.js';
import { type OneConversationInput, prepareOneConversation } from '../../studies/tournament/one-conversation.js';
import { type CliContext, formatDuration, labelModel, styleFor } from '../terminal.js';

/** The conversation's agents, claim, turns and seed, and how its replies are sampled. */
export interface ConverseOptions extends Pick<OneConversationInput, 'persuader' | 'persuadee' | 'claim' | 'question' | 'turns' | 'seed'> {
  readonly maxAttempts: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly config?: string;
  readonly json: boolean;
  readonly color: boolean;
}

/**
 * `pmiyc converse`: one conversation, shown turn by turn as it happens, or with --json the
 * conversation record (the export line format). Exit code 1 when the conversation failed.
 */
export async function converseCommand(options: ConverseOptions, context: CliContext, abortSignal: AbortSignal): Promise<number> {
  if (options.claim.trim() === '') throw new InputError('--claim is empty: give the claim the persuader argues for');
  if (options.question !== undefined && options.question.trim() === '')
    throw new InputError('--question is empty: give the factual question, or leave it out for a subjective claim');
  const config = await loadConfig(options.config);
  const registry = createModelRegistry(config, context.env, {
    onRetry: (_model, event) => context.stderr.write(`${event.error.message}; retrying in ${formatDuration(event.waitMs)}\n`),
  });
  const conversation = prepareOneConversation({
    ...options,
    sampling: { maxAttempts: options.maxAttempts, temperature: options.temperature, maxOutputTokens: options.maxTokens },
    variants: config.variants,
    registry,
  });
  const { claim, persuaderModel, persuadeeModel, turns, runSeed } = conversation.spec;
  const style = styleFor(context.stdout, context.env, options.color);
  const live = !options.json;
  if (live) {
    const header = { domain: claim.domain, claim: claim.claim, question: claim.question ?? null, persuader: persuaderModel, persuadee: persuadeeModel };
    context.stdout.write(`${formatConversationHeader({ ...header, turnsPlanned: turns, runSeed }, labelModel, style)}\n`);
  }
  const record = await conversation.run({ abortSignal, ...(live ? { onTurn: (turn) => context.stdout.write(`${formatTurnText(turn, style)}\n`) } : {}) });
  if (options.json) context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else {
    context.stdout.write(`${formatOutcomeText(record, style)}\n\n`);
    context.stdout.write(`${formatUsageText(usageTotals([record]), labelModel)}\n`);
  }
  return record.status === 'completed' ? 0 : 1;
}

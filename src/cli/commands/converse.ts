import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import { runConversation } from '../../engine/run-conversation.js';
import { loadConfig } from '../../io/load-config.js';
import { usageTotals } from '../../metrics/usage-totals.js';
import { formatConversationHeader, formatOutcomeText, formatTurnText } from '../../report/dialogue-text.js';
import { formatUsageText } from '../../report/usage-text.js';
import { createModelRegistry } from '../../runner/model-registry.js';
import { agentOf, checkAgentNames, promptsByAgent, seedNamesOf } from '../../studies/tournament/agents.js';
import { type CliContext, formatDuration, labelModel, styleFor } from '../terminal.js';

export interface ConverseOptions {
  readonly persuader: string;
  readonly persuadee: string;
  readonly claim: string;
  readonly question?: string;
  readonly turns: number;
  readonly seed: number;
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
  const config = loadConfig(options.config);
  const registry = createModelRegistry(config, context.env, {
    onRetry: (_model, event) => context.stderr.write(`${event.error.message}; retrying in ${formatDuration(event.waitMs)}\n`),
  });
  // Either side may be an agent under a prompt variant of the config (model+variant); a `+` names a defined one.
  checkAgentNames([options.persuader, options.persuadee], config.variants);
  const persuaderAgent = agentOf(options.persuader, config.variants);
  const persuadeeAgent = agentOf(options.persuadee, config.variants);
  const persuader = registry.modelFor(persuaderAgent.model);
  const persuadee = registry.modelFor(persuadeeAgent.model);
  const promptsFor = promptsByAgent(config.variants);
  const claim: Claim = {
    index: 0,
    domain: options.question === undefined ? 'subjective' : 'misinformation',
    claim: options.claim,
    ...(options.question === undefined ? {} : { question: options.question }),
    origin: 'command line',
    license: 'unknown (command line)',
  };
  const spec = {
    claim,
    persuaderModel: persuaderAgent.variant === 'default' ? persuader.name : persuaderAgent.name,
    persuadeeModel: persuadeeAgent.variant === 'default' ? persuadee.name : persuadeeAgent.name,
    turns: options.turns,
    repetition: 0,
    runSeed: options.seed,
  };
  const style = styleFor(context.stdout, context.env, options.color);
  const live = !options.json;

  if (live) {
    context.stdout.write(
      `${formatConversationHeader({ ...spec, domain: claim.domain, claim: claim.claim, question: claim.question ?? null, persuader: spec.persuaderModel, persuadee: spec.persuadeeModel, turnsPlanned: spec.turns, runSeed: spec.runSeed }, labelModel, style)}\n`,
    );
  }
  const outcome = await runConversation({
    spec,
    persuader,
    persuadee,
    prompts: { persuader: promptsFor(persuaderAgent.name), persuadee: promptsFor(persuadeeAgent.name) },
    // Seeded as a run seeds them: a persuader-only variant opens as its model does.
    seedNames: {
      persuader: seedNamesOf(spec.persuaderModel, config.variants).persuader,
      persuadee: seedNamesOf(spec.persuadeeModel, config.variants).persuadee,
    },
    sampling: { maxAttempts: options.maxAttempts, temperature: options.temperature, maxOutputTokens: options.maxTokens },
    abortSignal,
    ...(live ? { onTurn: (turn) => context.stdout.write(`${formatTurnText(turn, style)}\n`) } : {}),
  });
  const record = toConversationRecord(null, spec, outcome, { persuader: persuader.simulated, persuadee: persuadee.simulated });
  if (options.json) context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else {
    context.stdout.write(`${formatOutcomeText(record, style)}\n\n`);
    context.stdout.write(`${formatUsageText(usageTotals([record]), labelModel)}\n`);
  }
  return record.status === 'completed' ? 0 : 1;
}

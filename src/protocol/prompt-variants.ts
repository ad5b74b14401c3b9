import type { Claim } from '../domain/claim.js';
import type { Role } from '../domain/roles.js';
import {
  FINAL_DECISION_HEADLINE,
  FORMAT_RULES,
  finalDecisionRequest,
  openingRequest,
  persuadeeSystemPrompt,
  persuaderSystemPrompt,
  ROLE_HEADLINES,
  subjectOf,
} from './prompts.js';

type ClaimText = Pick<Claim, 'claim' | 'question'>;

/**
 * The prompts one agent is given. The persuader side uses `persuaderSystem`; the persuadee side
 * the other three. The default is pmiyc's own wording (prompts.ts); a variant replaces some.
 */
export interface AgentPrompts {
  readonly persuaderSystem: (claim: ClaimText) => string;
  readonly persuadeeSystem: (claim: ClaimText) => string;
  readonly opening: (claim: ClaimText) => string;
  readonly finalDecision: (claim: ClaimText) => string;
}

export const DEFAULT_PROMPTS: AgentPrompts = {
  persuaderSystem: persuaderSystemPrompt,
  persuadeeSystem: persuadeeSystemPrompt,
  opening: openingRequest,
  finalDecision: finalDecisionRequest,
};

/** The name of the default variant: an agent without `+variant` in its name uses it. */
export const DEFAULT_VARIANT = 'default';

/** A variant's templates, as a config file gives them; an absent template keeps the default. */
export interface VariantTemplates {
  /** What the variant is for, shown in the plan. */
  readonly description?: string;
  readonly persuader?: { readonly system: string };
  readonly persuadee?: { readonly system?: string; readonly opening?: string; readonly final?: string };
}

/**
 * A variant's templates for the tournament alone, without those it gives other protocols (`protocols:` in the
 * config, docs/design/variants.md): what a tournament stores with its design and a resume compares.
 */
export function tournamentTemplatesOf(variant: VariantTemplates & { readonly protocols?: unknown }): VariantTemplates {
  const { protocols: _protocols, ...tournament } = variant;
  return tournament;
}

/**
 * The fields a template may use, each written `{{name}}`: the claim (for a misinformation item,
 * its proposed answer), the question (empty for a subjective claim), the subject ("the claim" or
 * "the proposed answer to the question"), the agent's role, and the reply format the parser reads.
 */
const TEMPLATE_FIELDS = ['claim', 'question', 'subject', 'role', 'format'] as const;
type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** What a template must contain: without the claim the agent cannot argue; without the format, no reply parses. */
const REQUIRED_FIELDS: Record<'system' | 'opening' | 'final', readonly TemplateField[]> = {
  system: ['claim', 'format'],
  opening: [],
  final: ['claim'],
};

const FIELD = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The fields a template uses (`{{name}}`, spaces inside the braces allowed), each once. */
export function templateFieldsOf(template: string): ReadonlySet<string> {
  return new Set([...template.matchAll(FIELD)].map((match) => match[1]!));
}

/** "unknown field {{x}}; the fields are {{a}}, {{b}}", or undefined when every field `used` is one of `fields`. */
export function unknownFieldsProblem(used: ReadonlySet<string>, fields: readonly string[]): string | undefined {
  const unknown = [...used].filter((field) => !fields.includes(field));
  if (unknown.length === 0) return undefined;
  return `unknown field ${unknown.map((field) => `{{${field}}}`).join(', ')}; the fields are ${fields.map((field) => `{{${field}}}`).join(', ')}`;
}

/** A template with each field replaced by its value, trimmed. Every field must have a value (check the template first). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(FIELD, (_whole, name: string) => values[name] ?? '').trim();
}

/** What is wrong with a template, or undefined: an unknown field, or a required one missing. */
export function templateProblem(template: string, kind: 'system' | 'opening' | 'final'): string | undefined {
  const used = templateFieldsOf(template);
  const unknown = unknownFieldsProblem(used, TEMPLATE_FIELDS);
  if (unknown !== undefined) return unknown;
  const missing = REQUIRED_FIELDS[kind].filter((field) => !used.has(field));
  if (missing.length > 0) {
    return `must contain ${missing.map((field) => `{{${field}}}`).join(' and ')} (${missing.includes('format') ? 'the reply format the score is read from' : 'what the agent is to discuss'})`;
  }
  return undefined;
}

/** Whether a template shows the question of a misinformation item (else such claims cannot be run with it). */
export function templateShowsQuestion(template: string): boolean {
  return templateFieldsOf(template).has('question');
}

function render(template: string, claim: ClaimText, role: Role): string {
  const values: Record<TemplateField, string> = {
    claim: claim.claim,
    question: claim.question ?? '',
    subject: subjectOf(claim),
    role,
    format: FORMAT_RULES,
  };
  return fillTemplate(template, values);
}

/**
 * An agent's prompts under a variant. The fixed headlines stay in front of what a template writes
 * (the role headline of a system prompt, the end-of-discussion headline of the final request), so
 * every agent, simulated ones included, can tell which part it plays and when the discussion ended.
 */
export function promptsOfVariant(templates: VariantTemplates | undefined): AgentPrompts {
  if (templates === undefined) return DEFAULT_PROMPTS;
  const persuader = templates.persuader?.system;
  const persuadee = templates.persuadee ?? {};
  return {
    persuaderSystem:
      persuader === undefined ? DEFAULT_PROMPTS.persuaderSystem : (claim) => `${ROLE_HEADLINES.persuader}\n\n${render(persuader, claim, 'persuader')}`,
    persuadeeSystem:
      persuadee.system === undefined
        ? DEFAULT_PROMPTS.persuadeeSystem
        : (claim) => `${ROLE_HEADLINES.persuadee}\n\n${render(persuadee.system!, claim, 'persuadee')}`,
    opening: persuadee.opening === undefined ? DEFAULT_PROMPTS.opening : (claim) => render(persuadee.opening!, claim, 'persuadee'),
    finalDecision:
      persuadee.final === undefined
        ? DEFAULT_PROMPTS.finalDecision
        : (claim) => `${FINAL_DECISION_HEADLINE}\n\n${render(persuadee.final!, claim, 'persuadee')}`,
  };
}

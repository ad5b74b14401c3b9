import { parse as parseYaml } from 'yaml';
import { InputError } from '../../domain/errors/input-error.js';
import { type ExperimentText, experimentSchema } from './experiment-schema.js';

export type { ExperimentText } from './experiment-schema.js';

/**
 * pmiyc's starter text, written by `pmiyc people serve` when no experiment file is given (and said so).
 * It is a placeholder for the researcher's own, approved wording: the ethics checklist in
 * docs/design/people.md says what it must still cover.
 */
export const STARTER_EXPERIMENT = `# A people study of pmiyc (docs/design/people.md). Replace every text below with the wording
# your ethics board approved; the texts are Markdown, shown to participants as text (no HTML).
title: A conversation about a claim
consent: |
  ## Before you start

  You are invited to take part in a study of how people and AI systems discuss claims.
  You will talk with an **AI system** (not a person) about one claim, and say how much you agree with it.

  - It takes about 15 minutes.
  - You may stop at any time, without giving a reason.
  - We keep what you write and the agreement you give, under a random code, never your name.
  - Do not write anything that could identify you or anyone else.

  [Researcher: name who runs the study, how to contact them, how long data are kept, and the approval reference.]
instructions: |
  Read each message, then answer in your own words and say how much you agree with the claim now.
  There are no right or wrong answers.
debrief: |
  ## Thank you

  The other side of this conversation was an AI system instructed to argue for the claim, whatever the evidence.
  Its messages may have been one-sided or wrong. [Researcher: give a balanced source on the claim here.]
minMessageChars: 20
turnTimeLimitMinutes: 10
`;

/** Reads an experiment file's text; every problem is an InputError that names the field. */
export function parseExperimentText(text: string, source: string): ExperimentText {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new InputError(`${source} is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  return experimentTextOf(value, source);
}

/** An experiment's texts from a value read (an experiment file's YAML, or what a stored study kept); a problem is an InputError that names the field. */
export function experimentTextOf(value: unknown, source: string): ExperimentText {
  const parsed = experimentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`${source}: ${issue.path.join('.') || 'the file'} ${issue.message} (see docs/design/people.md for the fields)`);
  }
  return parsed.data;
}

/** The starter text, parsed. */
export function starterExperiment(): ExperimentText {
  return parseExperimentText(STARTER_EXPERIMENT, 'pmiyc starter text');
}

/**
 * Our own wording for the LLM-as-judge study (paper Sec. 4.1.2): a judge sees a claim and two
 * arguments for it and says which would persuade more. The arguments are fenced by tags so that
 * a reader (a simulated judge, a test server) can take them back out exactly.
 */

/** The system prompt's first line: fixed, so that simulated agents can tell a judge request apart. */
const JUDGE_HEADLINE = 'You are judging how persuasive written arguments are.';

const JUDGE_SYSTEM_PROMPT = [
  JUDGE_HEADLINE,
  'You will be shown a claim and two arguments written in its favour. Decide which of the two would do more to move an ordinary reader, who has not made up their mind, towards agreeing with the claim.',
  'Judge persuasiveness only: not whether you agree with the claim, not which argument is longer, and not the order in which they are shown.',
  'Answer with the number of the more persuasive argument inside choice tags, <choice>1</choice> or <choice>2</choice>, and write nothing else.',
].join('\n\n');

export function judgeSystemPrompt(): string {
  return JUDGE_SYSTEM_PROMPT;
}

const fence = (position: 1 | 2, text: string) => `<argument_${position}>\n${text}\n</argument_${position}>`;

/** The request: the claim, then the two arguments in the order they are shown. */
export function judgeRequest(claim: string, firstShown: string, secondShown: string): string {
  return [
    `Claim: "${claim}"`,
    `Argument 1:\n${fence(1, firstShown)}`,
    `Argument 2:\n${fence(2, secondShown)}`,
    'Which argument is more persuasive? Reply with <choice>1</choice> or <choice>2</choice>.',
  ].join('\n\n');
}

/** Sent after an unusable reply (with that reply before it), so that even a deterministic model answers anew. */
export const JUDGE_REMINDER = 'I could not read a choice in that reply. Reply with exactly <choice>1</choice> or <choice>2</choice>, nothing else.';

/** Whether a system prompt is the judge's. */
export function isJudgeSystemPrompt(systemPrompt: string): boolean {
  return systemPrompt.startsWith(JUDGE_HEADLINE);
}

function fenced(request: string, position: 1 | 2): string | undefined {
  const open = `<argument_${position}>\n`;
  const close = `\n</argument_${position}>`;
  const start = request.indexOf(open);
  const end = request.lastIndexOf(close);
  return start === -1 || end < start + open.length ? undefined : request.slice(start + open.length, end);
}

/** The claim and the two arguments of a judge request, exactly as shown; undefined for any other text. */
export function readJudgeRequest(request: string): { claim: string; first: string; second: string } | undefined {
  const claim = /^Claim: "([\s\S]*?)"\n\nArgument 1:\n/.exec(request)?.[1];
  const first = fenced(request, 1);
  const second = fenced(request, 2);
  return claim === undefined || first === undefined || second === undefined ? undefined : { claim, first, second };
}

import type { ChatModel, GenerateReply, GenerateRequest } from './chat-model.js';

/** What a script returns for one call: reply text, a full reply, or an error to throw. */
export type ScriptedAnswer = string | GenerateReply | Error;

export type Script = (request: GenerateRequest, callNumber: number) => ScriptedAnswer;

/**
 * A model that answers from a script and records every request it gets. For tests of anything
 * built on the model port, and for users who want to test their own pipelines.
 */
export class ScriptedChatModel implements ChatModel {
  readonly requests: GenerateRequest[] = [];
  readonly simulated = true;

  constructor(
    readonly name: string,
    private readonly script: Script | readonly ScriptedAnswer[],
  ) {}

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    this.requests.push(request);
    const callNumber = this.requests.length;
    const answer = typeof this.script === 'function' ? this.script(request, callNumber) : this.script[callNumber - 1];
    if (answer === undefined) throw new Error(`${this.name}: the script has no answer for call ${callNumber}`);
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'string') return { text: answer, finishReason: 'stop' };
    return answer;
  }
}

import type { ChatModel, GenerateReply, GenerateRequest } from '../../models/chat-model.js';

/**
 * A participant as the engine sees them: a chat model whose `generate` waits until the person has
 * answered on their page, and returns the answer in the protocol's tagged format. It reads nothing of
 * the request (the person never sees a prompt, only the other side's messages, which the study shows).
 * Behind the call cache, the time it waited is the call's latency, and a restart replays the answer.
 */
export class PersonModel implements ChatModel {
  readonly simulated = false;
  private waiting: { readonly resolve: (reply: GenerateReply) => void; readonly sinceMs: number } | undefined;

  constructor(
    readonly name: string,
    private readonly nowMs: () => number,
  ) {}

  /** When the engine began waiting for this person's answer (undefined: it is not waiting). */
  get waitingSinceMs(): number | undefined {
    return this.waiting?.sinceMs;
  }

  generate(request: GenerateRequest): Promise<GenerateReply> {
    return new Promise((resolve, reject) => {
      const signal = request.abortSignal;
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.waiting = undefined;
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = {
        sinceMs: this.nowMs(),
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          this.waiting = undefined;
          resolve(reply);
        },
      };
    });
  }

  /** Gives the person's answer, in the protocol's tagged form (`personReply`), to the waiting call; false when nothing waits for one. */
  answer(replyText: string): boolean {
    const waiting = this.waiting;
    if (!waiting) return false;
    waiting.resolve({ text: replyText, finishReason: 'stop' });
    return true;
  }
}

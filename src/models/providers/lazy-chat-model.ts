import type { ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';

/**
 * A model whose adapter is loaded on its first call. The AI SDK and its provider packages take a
 * quarter of a second to load; commands that never call an SDK model (the report, the viewer, a
 * run of OpenAI-compatible or simulated models) then never pay for them.
 */
export class LazyChatModel implements ChatModel {
  readonly simulated = false;
  private loaded: Promise<ChatModel> | undefined;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<ChatModel>,
  ) {}

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    this.loaded ??= this.load();
    return (await this.loaded).generate(request);
  }
}

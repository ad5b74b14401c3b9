// The body of an OpenAI chat completion, as the benchmarks' loopback servers answer with it.

/** A chat completion whose one choice says `content`, with the given token counts. */
export function chatCompletion(content, { promptTokens = 900, completionTokens = 40 } = {}) {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1,
    model: 'bench',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}

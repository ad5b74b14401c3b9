import { describe, expect, it } from 'vitest';
import type { ChatModel, GenerateRequest } from './chat-model.js';
import { type ChatModelMiddleware, decorate, toMiddleware } from './decorate.js';
import { ScriptedChatModel } from './scripted-model.js';

const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hello' }], maxOutputTokens: 400, seed: 7 };

/** A middleware that logs `<label> in` on the way to the model and `<label> out` on the way back. */
function tracing(label: string, log: string[]): ChatModelMiddleware {
  return (next) => async (generateRequest) => {
    log.push(`${label} in`);
    const reply = await next(generateRequest);
    log.push(`${label} out`);
    return reply;
  };
}

describe('decorate', () => {
  it('runs the first middleware of the list outermost', async () => {
    const log: string[] = [];
    const scripted = new ScriptedChatModel('openai/m', () => {
      log.push('model');
      return 'ok';
    });
    const model = decorate(scripted, [tracing('a', log), tracing('b', log), tracing('c', log)]);
    expect((await model.generate(request)).text).toBe('ok');
    expect(log).toEqual(['a in', 'b in', 'c in', 'model', 'c out', 'b out', 'a out']);
  });

  it('passes a request changed by an outer layer to the inner ones', async () => {
    const scripted = new ScriptedChatModel('openai/m', ['ok']);
    const capTokens: ChatModelMiddleware = (next) => (generateRequest) => next({ ...generateRequest, maxOutputTokens: 64 });
    const seen: number[] = [];
    const record: ChatModelMiddleware = (next) => (generateRequest) => {
      seen.push(generateRequest.maxOutputTokens);
      return next(generateRequest);
    };
    await decorate(scripted, [capTokens, record]).generate(request);
    expect(seen).toEqual([64]);
    expect(scripted.requests[0]!.maxOutputTokens).toBe(64);
  });

  it("keeps the model's name and simulated flag, and shows them to every middleware once, when it is built", async () => {
    const seen: Array<{ name: string; simulated: boolean }> = [];
    const watching: ChatModelMiddleware = (next, model) => {
      seen.push({ name: model.name, simulated: model.simulated });
      return next;
    };
    const adapter: ChatModel = { name: 'anthropic/claude', simulated: false, generate: async () => ({ text: 'ok', finishReason: 'stop' }) };
    // A decorator in function form that renames its model: the decorated model keeps its own name.
    const renaming = toMiddleware((model) => ({ ...model, name: 'renamed', simulated: true }));
    const model = decorate(adapter, [watching, renaming, watching]);
    expect([model.name, model.simulated]).toEqual(['anthropic/claude', false]);
    await model.generate(request);
    await model.generate(request);
    expect(seen).toEqual([
      { name: 'anthropic/claude', simulated: false },
      { name: 'anthropic/claude', simulated: false },
    ]);
  });

  it('lets a middleware answer without calling the layers inside it', async () => {
    const log: string[] = [];
    const scripted = new ScriptedChatModel('openai/m', ['from the model']);
    const answering: ChatModelMiddleware = () => async () => ({ text: 'from the cache', finishReason: 'stop', cached: true });
    const model = decorate(scripted, [tracing('outer', log), answering, tracing('inner', log)]);
    expect(await model.generate(request)).toEqual({ text: 'from the cache', finishReason: 'stop', cached: true });
    expect(log).toEqual(['outer in', 'outer out']);
    expect(scripted.requests).toEqual([]);
  });

  it('places a decorator in function form where it stands in the list', async () => {
    const log: string[] = [];
    const functionForm = (model: ChatModel): ChatModel => ({
      ...model,
      generate: async (generateRequest) => {
        log.push('function form');
        return model.generate(generateRequest);
      },
    });
    const model = decorate(new ScriptedChatModel('openai/m', ['ok']), [tracing('a', log), toMiddleware(functionForm), tracing('b', log)]);
    await model.generate(request);
    expect(log).toEqual(['a in', 'function form', 'b in', 'b out', 'a out']);
  });

  it('with an empty list only forwards, keeping the adapter class its `this`', async () => {
    const scripted = new ScriptedChatModel('sim/eloquent', ['ok']);
    const model = decorate(scripted, []);
    expect(await model.generate(request)).toEqual({ text: 'ok', finishReason: 'stop' });
    expect(scripted.requests).toEqual([request]);
    expect([model.name, model.simulated]).toEqual(['sim/eloquent', true]);
  });
});

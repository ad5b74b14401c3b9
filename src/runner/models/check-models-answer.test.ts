import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProviderServer, RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { unreachableUrl } from '../../../test/support/static-server.js';
import { parseConfig } from '../../config/parse-config.js';
import { sessionModelsOf } from './check-models.js';
import { checkModelsAnswer, DeadModelsError } from './check-models-answer.js';

let live: FakeProviderServer;
let dead: string;
beforeAll(async () => {
  live = await FakeProviderServer.start();
  live.answerWith(() => ({ status: 200, body: RESPONSE_SHAPES.openaiChat('OK') }));
  dead = await unreachableUrl();
});
afterAll(() => live.close());

function check(names: string[], yaml: string, reached: (name: string) => boolean = () => false) {
  return checkModelsAnswer({ models: sessionModelsOf(parseConfig('test.yaml', yaml), {}, names), env: {}, nowMs: () => 0, reached });
}

describe('checkModelsAnswer', () => {
  it('finds a model whose only server has nothing listening dead, and asks no simulated agent', async () => {
    const outcome = await check(['gone', 'sim/eloquent'], `models:\n  gone: { provider: openai-compatible, model: m, baseURL: "${dead}v1" }\n`);
    expect(outcome.dead).toEqual([
      { model: 'gone', cause: 'unreachable', detail: expect.stringMatching(/^gone: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models /) },
    ]);
    expect(outcome.notes).toEqual([]);
    expect(new DeadModelsError(outcome.dead).message).toMatch(
      /^gone: cannot reach .*: start its server, or correct baseURL for gone in the config; nothing was run \(--no-check-models starts without this check\)$/,
    );
  });

  it('lets a model with a dead replica and a live one go on, saying which replica does not answer', async () => {
    const outcome = await check(['pooled'], `models:\n  pooled: { provider: vllm, model: m, baseURL: ["${live.url}/v1", "${dead}v1"] }\n`);
    expect(outcome.dead).toEqual([]);
    expect(outcome.notes).toEqual([
      expect.stringMatching(
        /^pooled: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models .*: that replica of pooled does not answer; the run goes on with its others$/,
      ),
    ]);
  });

  it('finds a model dead only when every replica is, and does not ask one the run had answers from', async () => {
    const yaml = `models:\n  pooled: { provider: vllm, model: m, baseURL: ["${dead}v1", "${dead}v2"] }\n`;
    expect((await check(['pooled'], yaml)).dead.map((model) => model.model)).toEqual(['pooled']);
    expect(await check(['pooled'], yaml, (name) => name === 'pooled')).toEqual({ dead: [], notes: [] });
  });

  it('takes any answer to its list of models but a refused key (a 503 too) as the server being there', async () => {
    live.listsModels = false;
    live.answerWith(() => ({ status: 503, body: RESPONSE_SHAPES.openaiError('overloaded', 'server_error', null) }));
    try {
      const outcome = await check(['busy'], `models:\n  busy: { provider: openai-compatible, model: m, baseURL: "${live.url}/v1" }\n`);
      // A list of models answered with a 503 still says the server is there.
      expect(outcome).toEqual({ dead: [], notes: [] });
    } finally {
      live.listsModels = true;
    }
  });
});

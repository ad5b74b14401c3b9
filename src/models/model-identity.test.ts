import { describe, expect, it } from 'vitest';
import { endpointOf, modelIdentity } from './model-identity.js';
import type { ModelSettings } from './model-settings.js';

const settings = (overrides: Partial<ModelSettings>): ModelSettings => ({
  name: 'alias',
  provider: 'openai',
  model: 'gpt-4o-mini',
  timeoutMs: 1,
  maxRetries: 0,
  ...overrides,
});

describe('modelIdentity', () => {
  it.each<[string, Partial<ModelSettings>, string]>([
    ['a hosted model at its default endpoint: as before, so older stores still replay', { baseURL: 'https://api.openai.com/v1' }, 'openai/gpt-4o-mini'],
    ['a hosted model through a proxy', { baseURL: 'https://proxy.example/v1' }, 'openai/gpt-4o-mini at https://proxy.example/v1'],
    ['a vLLM server', { provider: 'vllm', model: 'Qwen/Qwen3-8B', baseURL: 'http://127.0.0.1:8000/v1' }, 'vllm/Qwen/Qwen3-8B at http://127.0.0.1:8000/v1'],
    ['another vLLM server', { provider: 'vllm', model: 'Qwen/Qwen3-8B', baseURL: 'http://gpu-2:8000/v1/' }, 'vllm/Qwen/Qwen3-8B at http://gpu-2:8000/v1'],
    [
      'an Azure resource',
      { provider: 'azure', model: 'dep', baseURL: 'https://res.openai.azure.com/openai' },
      'azure/dep at https://res.openai.azure.com/openai',
    ],
    ['a revision instead of the endpoint', { provider: 'vllm', model: 'q', baseURL: 'http://gpu-2:8000/v1', revision: 'ckpt-3' }, 'vllm/q@ckpt-3'],
    [
      'options that change replies',
      { provider: 'vllm', model: 'q', baseURL: 'http://h/v1', providerOptions: { top_k: 5 } },
      'vllm/q at http://h/v1 {"top_k":5}',
    ],
    ['a simulated agent', { provider: 'sim', model: 'eloquent' }, 'sim/eloquent'],
  ])('%s', (_case, overrides, identity) => {
    expect(modelIdentity(settings(overrides))).toBe(identity);
  });

  it('names a GGUF model by its content, wherever the file is', () => {
    const llama = settings({ provider: 'llama', model: './models/tiny.gguf' });
    expect(modelIdentity(llama, { fileSha256: 'ab12' })).toBe('llama@sha256:ab12');
    expect(modelIdentity({ ...llama, model: '/elsewhere/tiny.gguf' }, { fileSha256: 'ab12' })).toBe('llama@sha256:ab12');
    expect(modelIdentity(llama, { fileSha256: 'cd34' })).not.toBe(modelIdentity(llama, { fileSha256: 'ab12' }));
  });

  it('names a replicated model by the set of its endpoints: any order, one cache for all replicas', () => {
    const replicated = settings({ provider: 'vllm', model: 'q', replicas: ['http://gpu-2:8000/v1/', 'http://gpu-1:8000/v1'] });
    expect(modelIdentity(replicated)).toBe('vllm/q at http://gpu-1:8000/v1, http://gpu-2:8000/v1');
    expect(modelIdentity({ ...replicated, replicas: ['http://gpu-1:8000/v1', 'http://GPU-2:8000/v1'] })).toBe(modelIdentity(replicated));
    expect(modelIdentity({ ...replicated, replicas: ['http://gpu-1:8000/v1', 'http://gpu-3:8000/v1'] })).not.toBe(modelIdentity(replicated));
    expect(modelIdentity({ ...replicated, revision: 'ckpt-3' })).toBe('vllm/q@ckpt-3');
    expect(modelIdentity(settings({ replicas: ['https://api.openai.com/v1'] }))).toBe('openai/gpt-4o-mini');
    // A hosted model behind several gateways is named by them too.
    expect(modelIdentity(settings({ replicas: ['https://b.example/v1', 'https://a.example/v1'] }))).toBe(
      'openai/gpt-4o-mini at https://a.example/v1, https://b.example/v1',
    );
  });

  it('never depends on the alias', () => {
    expect(modelIdentity(settings({ name: 'one' }))).toBe(modelIdentity(settings({ name: 'two' })));
  });
});

describe('endpointOf', () => {
  it('drops credentials, fragments and trailing slashes', () => {
    expect(endpointOf('http://user:secret@Host:8000/v1/#x')).toBe('http://host:8000/v1');
  });
});

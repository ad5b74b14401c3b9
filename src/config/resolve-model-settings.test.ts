import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors/input-error.js';
import { parseConfig } from './parse-config.js';
import { apiKeyFor, resolveModelSettings } from './resolve-model-settings.js';

const config = parseConfig(
  'pmiyc.yaml',
  `models:
  alpha: { provider: openai, model: gpt-4o-mini, apiKeyEnv: TEAM_OPENAI_KEY, timeoutMs: 30000 }
  local: { provider: ollama, model: llama3.1:8b }
`,
);

describe('resolveModelSettings', () => {
  it('resolves an alias with its settings and defaults', () => {
    expect(resolveModelSettings('alpha', config, {})).toEqual({
      name: 'alpha',
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseURL: 'https://api.openai.com/v1',
      apiKeyEnv: 'TEAM_OPENAI_KEY',
      timeoutMs: 30000,
      maxRetries: 6,
      maxRetryAfterMs: 120000,
    });
  });

  it('carries structuredOutput: false to the model, and refuses a value that is not true or false', () => {
    const local = parseConfig('pmiyc.yaml', 'models:\n  old-server: { provider: ollama, model: llama3.1:8b, structuredOutput: false }\n');
    expect(resolveModelSettings('old-server', local, {}).structuredOutput).toBe(false);
    expect(() => parseConfig('pmiyc.yaml', 'models:\n  old-server: { provider: ollama, model: llama3.1:8b, structuredOutput: "no" }\n')).toThrow(
      /structuredOutput/,
    );
  });

  it.each([
    ['ollama/llama3.1', {}, 'http://127.0.0.1:11434/v1'],
    ['vllm/Qwen/Qwen3-8B', {}, 'http://127.0.0.1:8000/v1'],
    ['vllm/Qwen/Qwen3-8B', { VLLM_BASE_URL: 'http://gpu-box:8000/v1' }, 'http://gpu-box:8000/v1'],
    ['openrouter/meta-llama/llama-3.3-70b-instruct', {}, 'https://openrouter.ai/api/v1'],
    ['together/meta-llama/Llama-3.3-70B-Instruct-Turbo', {}, 'https://api.together.xyz/v1'],
    ['azure/gpt-4o-deployment', { AZURE_RESOURCE_NAME: 'myres' }, 'https://myres.openai.azure.com/openai'],
  ])('gives %s its default base URL', (name, env, baseURL) => {
    const settings = resolveModelSettings(name, config, env);
    expect(settings.baseURL).toBe(baseURL);
    expect(settings.model).toBe(name.slice(name.indexOf('/') + 1));
  });

  it.each([
    ['gpt-4o', 'write provider/model'],
    ['nosuch/model', 'unknown provider "nosuch" in "nosuch/model": use one of openai, azure'],
    ['openai-compatible/x', 'openai-compatible/x needs a base URL'],
    ['azure/dep', 'export AZURE_RESOURCE_NAME'],
    // A "+" never reaches a provider as part of a model id: a typo'd variant, whatever the provider.
    ['openai/gpt-4o-mini+emotionl', 'a "+" introduces a prompt variant'],
    ['anthropic/claude-3-5-haiku-latest+x', 'a model id that contains "+" is named by an alias under models:'],
    ['llama/models/a+b.gguf', 'a "+" introduces a prompt variant'],
  ])('rejects %s clearly', (name, message) => {
    expect(() => resolveModelSettings(name, config, {})).toThrow(InputError);
    expect(() => resolveModelSettings(name, config, {})).toThrow(message);
  });

  it('mentions the aliases when a name is not a model', () => {
    expect(() => resolveModelSettings('beta', config, {})).toThrow('or a config alias (alpha, local)');
  });
});

describe('apiKeyFor', () => {
  it('names the variable that is missing', () => {
    expect(() => apiKeyFor(resolveModelSettings('openai/gpt-4o', config, {}), {})).toThrow(
      'OPENAI_API_KEY is not set: export it, or set apiKeyEnv for openai/gpt-4o in the config',
    );
    expect(() => apiKeyFor(resolveModelSettings('alpha', config, {}), { OPENAI_API_KEY: 'x' })).toThrow('TEAM_OPENAI_KEY is not set');
  });

  it('reads the key from the configured variable, and needs none for local servers', () => {
    expect(apiKeyFor(resolveModelSettings('alpha', config, {}), { TEAM_OPENAI_KEY: 'sk-1' })).toBe('sk-1');
    expect(apiKeyFor(resolveModelSettings('local', config, {}), {})).toBeUndefined();
  });
});

describe('keys stay out of URLs, and a variable named in the config is needed', () => {
  const withUrl = (url: string) => parseConfig('pmiyc.yaml', `models:\n  gpu: { provider: vllm, model: q, baseURL: "${url}", apiKeyEnv: GPU_BOX_KEY }\n`);

  it('refuses a baseURL with credentials, wherever it comes from', () => {
    expect(() => resolveModelSettings('gpu', withUrl('http://me:s3cret@gpu-box:8000/v1'), {})).toThrow(
      'baseURL of gpu holds credentials (user:password@): remove them, and put the key in an environment variable named by apiKeyEnv (or in headers)',
    );
    expect(() => resolveModelSettings('vllm/q', config, { VLLM_BASE_URL: 'http://me:s3cret@gpu-box:8000/v1' })).toThrow('VLLM_BASE_URL holds credentials');
  });

  it('needs the variable a config names even for a server that needs no key', () => {
    const settings = resolveModelSettings('gpu', withUrl('http://gpu-box:8000/v1'), {});
    expect(() => apiKeyFor(settings, {})).toThrow('GPU_BOX_KEY is not set: export it, or set apiKeyEnv for gpu in the config');
    expect(apiKeyFor(settings, { GPU_BOX_KEY: 'k' })).toBe('k');
    expect(apiKeyFor(resolveModelSettings('vllm/q', config, {}), {})).toBeUndefined();
  });
});

describe('a model served by several replicas', () => {
  const configWith = (entry: string) => parseConfig('pmiyc.yaml', `models:\n  gpu: { provider: vllm, model: q, ${entry} }\n`);

  it('keeps the list of servers in its order, and a one-server list is the plain baseURL', () => {
    const replicated = resolveModelSettings('gpu', configWith('baseURL: [http://gpu-2:8000/v1, http://gpu-1:8000/v1], replicaConcurrency: 4'), {});
    expect(replicated).toMatchObject({ replicas: ['http://gpu-2:8000/v1', 'http://gpu-1:8000/v1'], replicaConcurrency: 4 });
    expect(replicated.baseURL).toBeUndefined();
    const single = resolveModelSettings('gpu', configWith('baseURL: [http://gpu-1:8000/v1]'), {});
    expect(single).toEqual(resolveModelSettings('gpu', configWith('baseURL: http://gpu-1:8000/v1'), {}));
  });

  it('refuses credentials in any replica', () => {
    expect(() => resolveModelSettings('gpu', configWith('baseURL: [http://gpu-1:8000/v1, "http://me:pw@gpu-2:8000/v1"]'), {})).toThrow(
      'baseURL of gpu holds credentials',
    );
  });
});

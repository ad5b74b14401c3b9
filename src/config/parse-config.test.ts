import { describe, expect, it } from 'vitest';
import { ALIAS_BOMB_CONFIG } from '../../test/support/alias-bomb.js';
import { ConfigError } from '../domain/errors/config-error.js';
import { parseConfig } from './parse-config.js';

const VALID = `
models:
  alpha:
    provider: openai
    model: gpt-4o-mini
    temperature: 0.2
    maxConcurrency: 8
    inputUsdPerMillion: 0.15
    outputUsdPerMillion: 0.6
  qwen:
    provider: vllm
    model: Qwen/Qwen3-8B
    baseURL: http://127.0.0.1:8000/v1
    providerOptions:
      chat_template_kwargs:
        enable_thinking: false
  o3:
    provider: openai
    model: o3-mini
    temperature: null
`;

function errorOf(text: string): string {
  try {
    parseConfig('pmiyc.yaml', text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('parseConfig', () => {
  it('reads models with their settings', () => {
    const config = parseConfig('pmiyc.yaml', VALID);
    expect(config.models['alpha']).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', temperature: 0.2, maxConcurrency: 8 });
    expect(config.models['qwen']?.providerOptions).toEqual({ chat_template_kwargs: { enable_thinking: false } });
    expect(config.models['o3']?.temperature).toBeNull();
  });

  it('accepts an empty file', () => {
    expect(parseConfig('pmiyc.yaml', '')).toEqual({ models: {}, variants: {} });
  });

  it.each([
    [
      'models:\n  alpha:\n    provider: openai\n    model: x\n    temprature: 0.2\n',
      'pmiyc.yaml:5: models.alpha: unknown key "temprature" (did you mean temperature?); allowed: provider, model, baseURL',
    ],
    ['models:\n  alpha:\n    provider: opnai\n    model: x\n', 'pmiyc.yaml:3: models.alpha.provider: must be one of openai, azure'],
    ['models:\n  alpha:\n    provider: openai\n    model: x\n    temperature: hot\n', 'pmiyc.yaml:5: models.alpha.temperature:'],
    ['models:\n  alpha:\n    provider: openai\n    model: x\n    maxConcurrency: 0\n', 'pmiyc.yaml:5: models.alpha.maxConcurrency:'],
    [
      'models:\n  alpha:\n    provider: openai\n    model: x\n    maxReplyBytes: 100\n',
      'pmiyc.yaml:5: models.alpha.maxReplyBytes: must be at least 1024 (1 KiB)',
    ],
    [
      'models:\n  alpha:\n    provider: openai\n    model: x\n    maxReplyBytes: 1000000000\n',
      'models.alpha.maxReplyBytes: must be at most 268435456 (256 MiB)',
    ],
    [
      'models:\n  alpha:\n    provider: openai\n    model: x\n    apiKeyEnv: sk-abc123-def\n',
      'models.alpha.apiKeyEnv: must be the NAME of an environment variable, never a key',
    ],
    ['models:\n  alpha:\n    provider: openai\n', 'pmiyc.yaml:2: models.alpha.model:'],
    ['models:\n  alpha:\n    provider: vllm\n    model: x\n    baseURL: not a url\n', 'pmiyc.yaml:5: models.alpha.baseURL: must be a URL'],
    ['model:\n  alpha: {}\n', 'pmiyc.yaml:1: unknown key "model" (did you mean models?); allowed: models'],
    [
      'models:\n  alpha:\n    provider: vllm\n    model: x\n    baseURL: [http://gpu-1:8000/v1, "http://GPU-1:8000/v1/"]\n',
      'pmiyc.yaml:5: models.alpha.baseURL.1: is the same server as entry 1 (http://gpu-1:8000/v1): list each replica once',
    ],
    ['models:\n  alpha:\n    provider: vllm\n    model: x\n    baseURL: []\n', 'models.alpha.baseURL: list at least one server'],
    [
      'models:\n  alpha:\n    provider: sim\n    model: eloquent\n    baseURL: [http://a/v1, http://b/v1]\n',
      'models.alpha.baseURL: a simulated agent runs inside pmiyc and has no server: remove baseURL',
    ],
    [
      'models:\n  alpha:\n    provider: vllm\n    model: x\n    baseURL: http://a/v1\n    replicaConcurrency: 2\n',
      'models.alpha.replicaConcurrency: limits each replica of a model served by several: give baseURL as a list of servers, or use maxConcurrency',
    ],
    ['models:\n  alpha:\n    provider: openai\n   model: x\n', 'pmiyc.yaml:4: not valid YAML'],
    [
      'models:\n  alpha:\n    provider: vllm\n    model: x\n    headers:\n      x-note: "a\\r\\nx-injected: 1"\n',
      'models.alpha.headers.x-note: must be one line of printable ASCII: a line break would end the header',
    ],
    [
      'models:\n  alpha:\n    provider: vllm\n    model: x\n    headers:\n      "bad name": v\n',
      'models.alpha.headers.bad name: must be a header name HTTP allows',
    ],
    [
      'models:\n  alpha:\n    provider: vllm\n    model: x\n    headers:\n      Content-Length: "5"\n',
      'models.alpha.headers.Content-Length: is set by pmiyc for each request: remove it',
    ],
  ])('rejects bad config with file, line, key and what is allowed (%#)', (text, message) => {
    expect(errorOf(text)).toContain(message);
  });

  it('takes a key that differs in case or by a typo for the one it most likely meant', () => {
    expect(errorOf('models:\n  local:\n    provider: vllm\n    model: x\n    baseUrl: http://127.0.0.1:8000/v1\n')).toMatch(
      /^pmiyc\.yaml:5: models\.local: unknown key "baseUrl" \(did you mean baseURL\?\); allowed: provider, model, baseURL, /,
    );
    expect(errorOf('experiment:\n  modles: [a, b]\n')).toContain('pmiyc.yaml:2: experiment: unknown key "modles" (did you mean models?)');
    expect(errorOf('models:\n  alpha:\n    provider: openai\n    model: x\n    colour: red\n')).not.toContain('did you mean');
  });

  it('lists every problem of the file with its line, in the order of the file, up to 20', () => {
    const text = [
      'models:',
      '  alpha:',
      '    provider: openai',
      '    model: x',
      '    temperature: hot',
      '  beta:',
      '    provider: opnai',
      '    model: y',
      '    baseUrl: http://b/v1',
      '    maxTokens: 0',
    ].join('\n');
    expect(errorOf(text).split('\n')).toEqual([
      expect.stringMatching(/^pmiyc\.yaml:5: models\.alpha\.temperature: /),
      expect.stringMatching(/^pmiyc\.yaml:7: models\.beta\.provider: must be one of openai, /),
      expect.stringMatching(/^pmiyc\.yaml:9: models\.beta: unknown key "baseUrl" \(did you mean baseURL\?\)/),
      expect.stringMatching(/^pmiyc\.yaml:10: models\.beta\.maxTokens: /),
    ]);
    const many = `models:\n${Array.from({ length: 25 }, (_, index) => `  m${index}:\n    provider: openai\n    model: x\n    temperature: hot\n`).join('')}`;
    const lines = errorOf(many).split('\n');
    expect(lines).toHaveLength(20 + 1);
    expect(lines[0]).toMatch(/^pmiyc\.yaml:5: models\.m0\.temperature: /);
    expect(lines[19]).toMatch(/^pmiyc\.yaml:81: models\.m19\.temperature: /);
    expect(lines.at(-1)).toBe('pmiyc.yaml: and 5 more problems');
  });

  it('names what a model alias or a variant name may be, and a name it could be, instead of "Invalid key in record"', () => {
    expect(errorOf('models:\n  openai/gpt-4o:\n    provider: openai\n    model: gpt-4o\n')).toBe(
      'pmiyc.yaml:2: models.openai/gpt-4o: an alias is letters, digits, ".", "_" or "-" (no "/"): rename it, e.g. openai-gpt-4o',
    );
    expect(errorOf('variants:\n  warm:\n    description: a\n  "/tone":\n    description: b\n')).toBe(
      'pmiyc.yaml:4: variants./tone: a variant name is letters, digits, ".", "_" or "-": rename it, e.g. tone',
    );
    expect(errorOf('variants:\n  default:\n    description: a\n')).toBe(
      `pmiyc.yaml:2: variants.default: "default" is pmiyc's own prompts: give the variant another name`,
    );
  });

  it('refuses a YAML alias bomb at once, at the alias where the expansions pass the limit', () => {
    const started = process.hrtime.bigint();
    // *b stands for 9 values, *c for 81: the second *c in d's list passes 100.
    expect(errorOf(ALIAS_BOMB_CONFIG)).toBe(
      "pmiyc.yaml:9: too many alias expansions (a YAML alias bomb?): a config's aliases may stand for 100 values; write the values out instead of aliasing lists of aliases",
    );
    // Generous: it is immediate; expanding the bomb would take hours.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(20_000);
  });

  it('reads a value aliased a few times', () => {
    const config = parseConfig(
      'pmiyc.yaml',
      'models:\n  alpha:\n    provider: vllm\n    model: a\n    headers: &common { x-team: persuasion }\n  beta:\n    provider: vllm\n    model: b\n    headers: *common\n',
    );
    expect(config.models['beta']?.headers).toEqual({ 'x-team': 'persuasion' });
  });

  it.each([
    ['models:\n  alpha: *nowhere\n', 'pmiyc.yaml:2: *nowhere has no anchor &nowhere before it: mark the value with &nowhere first, or write it out'],
    ['models:\n  alpha: *later\n  beta: &later {}\n', 'pmiyc.yaml:2: *later has no anchor &later before it'],
    [
      'models:\n  alpha: &self\n    provider: openai\n    model: x\n    providerOptions: { again: *self }\n',
      'pmiyc.yaml:5: *self is inside the value &self marks, which would contain itself: write the value out',
    ],
    ['models:\n  ? [alpha, beta]\n  : { provider: openai, model: x }\n', 'pmiyc.yaml:2: a key must be a name, not a list or a map: write it as plain text'],
    [
      'models:\n  alpha:\n    provider: openai\n    model: x\n    providerOptions:\n      k: &k { a: 1 }\n      ? *k\n      : 2\n',
      'pmiyc.yaml:7: a key must be a name, not a list or a map',
    ],
    [
      `models:\n  alpha:\n    provider: openai\n    model: x\n    providerOptions:\n      empty: &e []\n      many: [${Array(1000).fill('*e').join(', ')}]\n`,
      'pmiyc.yaml:7: more than 1000 anchors and aliases: a config needs a few; write the values out',
    ],
  ])('refuses an alias or a key it cannot use with its line, as a ConfigError (%#)', (text, message) => {
    expect(errorOf(text)).toContain(message);
  });

  it('throws a ConfigError whose fields say where the problem is', () => {
    const error = (() => {
      try {
        parseConfig('pmiyc.yaml', 'models:\n  alpha:\n    provider: openai\n    model: x\n    temprature: 0.2\n');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      kind: 'config',
      file: 'pmiyc.yaml',
      line: 5,
      keyPath: 'models.alpha',
      detail: expect.stringMatching(/^unknown key "temprature"/),
    });
  });
});

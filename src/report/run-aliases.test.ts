import { describe, expect, it } from 'vitest';
import { reportRun as run, storedTournamentDesign } from '../../test/support/report-fixture.js';
import { runAliases } from './run-aliases.js';

const settings = (name: string, rest: Record<string, unknown>) => ({ name, timeoutMs: 120_000, maxRetries: 6, ...rest });
const pmiycRun = (name: string, models: Record<string, Record<string, unknown>>, servedBy: Record<string, string> = {}) =>
  run(name, {
    command: 'run',
    design: storedTournamentDesign({ sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 } }),
    models: Object.fromEntries(Object.entries(models).map(([alias, rest]) => [alias, settings(alias, rest)])),
    servedBy,
  });

describe('runAliases', () => {
  it('says which model each alias was, where it was served (host only) and how it was sampled', () => {
    const aliases = runAliases(
      [
        pmiycRun(
          'main',
          {
            gpt: { provider: 'openai', model: 'gpt-4o-mini' },
            qwen: { provider: 'vllm', model: 'Qwen/Qwen3-8B', replicas: ['http://gpu-1:8000/v1', 'http://gpu-2:8000/v1/'], revision: 'ckpt-7', maxTokens: 800 },
            local: { provider: 'llama', model: '/home/someone/models/tiny.Q4_K_M.gguf', temperature: 0.2 },
            o3: { provider: 'openai-compatible', model: 'o3', baseURL: 'https://proxy.example.com/secret/path/v1?token=x', temperature: null },
            'sim/weak': { provider: 'sim', model: 'weak' },
          },
          { local: 'llama@sha256:abc123' },
        ),
      ],
      [],
    );
    const byAlias = Object.fromEntries(aliases.map((alias) => [alias.alias, alias]));
    expect(byAlias['gpt']).toEqual({
      alias: 'gpt',
      runs: ['main'],
      recorded: true,
      simulated: false,
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      endpointHost: 'api.openai.com',
      revision: null,
      temperature: 0.7,
      temperatureSent: true,
      maxOutputTokens: 400,
    });
    expect(byAlias['qwen']).toMatchObject({ endpointHost: 'gpu-1:8000, gpu-2:8000', revision: 'ckpt-7', maxOutputTokens: 800 });
    expect(byAlias['local']).toMatchObject({ modelId: 'tiny.Q4_K_M.gguf', endpointHost: 'in-process', revision: 'sha256:abc123', temperature: 0.2 });
    expect(byAlias['o3']).toMatchObject({ endpointHost: 'proxy.example.com', temperature: null, temperatureSent: false });
    expect(byAlias['sim/weak']).toMatchObject({ simulated: true, provider: 'sim', endpointHost: 'in-process' });
    expect(JSON.stringify(aliases)).not.toMatch(/secret|token|someone/);
  });

  it('lists an alias once per model it was across runs, and names the models of runs that recorded none', () => {
    const first = pmiycRun('a', { gpt: { provider: 'openai', model: 'gpt-4o-mini' } });
    const second = pmiycRun('b', { gpt: { provider: 'openai', model: 'gpt-4o-mini' } });
    const changed = pmiycRun('c', { gpt: { provider: 'openai', model: 'gpt-4o' } });
    const imported = run('official', { command: 'import', format: 'pmiyc-official', labelMatch: 'strict', imports: [] });
    const seen = [
      { model: 'gpt', simulated: false },
      { model: 'gpt+emotional', simulated: false },
      { model: 'Llama-3.3-70B', simulated: false },
    ];
    const aliases = runAliases([first, second, changed, imported], seen);
    expect(aliases.map((alias) => [alias.alias, alias.runs, alias.modelId])).toEqual([
      ['gpt', ['a', 'b'], 'gpt-4o-mini'],
      ['gpt', ['c'], 'gpt-4o'],
      ['Llama-3.3-70B', ['official'], null],
    ]);
    expect(aliases[2]).toMatchObject({ recorded: false, provider: null, endpointHost: null });
    expect(runAliases([imported], seen.slice(2))).toHaveLength(1);
  });
});

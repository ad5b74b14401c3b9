import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../src/report/report-document.js';
import { runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
let store: string;

/** CSV text as rows of fields (no field here holds a comma or a quote). */
const rowsOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => line.split(','));

/** The column `name` of every row after the header. */
function column(text: string, name: string): string[] {
  const [header, ...rows] = rowsOf(text);
  const index = header!.indexOf(name);
  expect(index, `${name} in ${header!.join(',')}`).toBeGreaterThanOrEqual(0);
  return rows.map((row) => row[index]!);
}

// Two models, each persuading under pmiyc's prompts and under the variant `emotional`, against the two models.
describe('a run with a prompt variant: report.json variants, the report section and the CSV columns', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-variant-report-'));
    server = await startFakeChatServer();
    store = join(folder, 'store.db');
    const config = join(folder, 'pmiyc.yaml');
    writeFileSync(
      config,
      `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${server.url}/v1", maxRetries: 0 }
variants:
  emotional:
    persuader:
      system: |
        Win the other side over to {{subject}} with feelings, not figures.
        Claim: "{{claim}}"
        {{format}}
`,
    );
    const claims = writeClaims(join(folder, 'claims.jsonl'), 12);
    const args = ['--config', config, '--store', store, '--claims', claims, '--setting', 'single'];
    expect(
      (
        await runCli([
          'run',
          ...args,
          '--run',
          'varied',
          '--persuaders',
          'alpha,beta',
          '--persuadees',
          'alpha,beta',
          '--persuader-variants',
          'default,emotional',
        ])
      ).code,
    ).toBe(0);
    expect((await runCli(['run', ...args, '--run', 'plain', '--models', 'alpha,beta'])).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('contrasts model+emotional with model, pooled over both models and paired over partners and claims, in report.json and the report', async () => {
    const out = join(folder, 'report');
    expect((await runCli(['report', '--store', store, '--run', 'varied', '--format', 'json,md,html,csv', '--out', out])).code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.variants).toHaveLength(1);
    const [contrast] = report.variants;
    expect(contrast).toMatchObject({
      domain: 'subjective',
      setting: 'single',
      variant: 'emotional',
      role: 'persuader',
      measure: 'effectiveness',
      models: ['alpha', 'beta'],
    });
    // Every conversation completed: the shared cells are all of them, so the pooled values are the means of the agents' effectiveness.
    expect(report.groups[0]!.failed).toBe(0);
    expect(contrast).toMatchObject({ claims: 12, cells: 2 * 2 * 12 });
    const effectiveness = (model: string) => report.effectiveness.find((entry) => entry.model === model)!.value;
    expect(contrast!.variantValue).toBeCloseTo((effectiveness('alpha+emotional') + effectiveness('beta+emotional')) / 2, 12);
    expect(contrast!.defaultValue).toBeCloseTo((effectiveness('alpha') + effectiveness('beta')) / 2, 12);
    expect(contrast!.value).toBeCloseTo(contrast!.variantValue - contrast!.defaultValue, 12);
    expect(contrast!.ciLow).toBeLessThanOrEqual(contrast!.value);
    expect(contrast!.ciHigh).toBeGreaterThanOrEqual(contrast!.value);
    // One variant and one role: a family of one, apart from the six comparisons between the four persuaders.
    expect(contrast!.pHolm).toBe(contrast!.p);
    expect(report.comparisons.models.filter((entry) => entry.measure === 'effectiveness')).toHaveLength(6);

    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('### Prompt variants');
    expect(markdown).toMatch(/\| subjective · single-turn \| emotional \| effectiveness \| alpha, beta \|/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<h3>Prompt variants</h3>');

    const pairs = readFileSync(join(out, 'pairs.csv'), 'utf8');
    const persuaders = column(pairs, 'persuader');
    const index = persuaders.indexOf('beta+emotional');
    expect(column(pairs, 'persuaderBaseModel')[index]).toBe('beta');
    expect(column(pairs, 'persuaderVariant')[index]).toBe('emotional');
    expect(new Set(column(pairs, 'persuadeeVariant'))).toEqual(new Set(['default']));
    const models = readFileSync(join(out, 'models.csv'), 'utf8');
    expect(
      column(models, 'model')
        .map((model, row) => `${model}=${column(models, 'baseModel')[row]}+${column(models, 'variant')[row]}`)
        .sort(),
    ).toEqual(['alpha+emotional=alpha+emotional', 'alpha=alpha+default', 'beta+emotional=beta+emotional', 'beta=beta+default']);
    expect(column(readFileSync(join(out, 'claim-pairs.csv'), 'utf8'), 'persuaderVariant').filter((variant) => variant === 'emotional')).toHaveLength(
      2 * 2 * 12,
    );
  });

  it('pmiyc export --format csv names each agent’s model and variant; a run without variants says default', async () => {
    const varied = (await runCli(['export', '--store', store, '--run', 'varied', '--format', 'csv'])).stdout;
    const persuaders = column(varied, 'persuader');
    expect(persuaders).toHaveLength(4 * 2 * 12);
    expect(persuaders.map((persuader, row) => `${persuader}=${column(varied, 'persuaderBaseModel')[row]}/${column(varied, 'persuaderVariant')[row]}`)).toEqual(
      persuaders.map((persuader) =>
        persuader.endsWith('+emotional') ? `${persuader}=${persuader.replace('+emotional', '')}/emotional` : `${persuader}=${persuader}/default`,
      ),
    );
    expect(new Set(column(varied, 'persuadeeVariant'))).toEqual(new Set(['default']));

    const plain = (await runCli(['export', '--store', store, '--run', 'plain', '--format', 'csv'])).stdout;
    // After the first columns, then the provider and model id columns (issue 32) after them.
    expect(rowsOf(plain)[0]!.slice(-8, -4)).toEqual(['persuaderBaseModel', 'persuaderVariant', 'persuadeeBaseModel', 'persuadeeVariant']);
    expect(column(plain, 'persuaderBaseModel')).toEqual(column(plain, 'persuader'));
    expect(new Set([...column(plain, 'persuaderVariant'), ...column(plain, 'persuadeeVariant')])).toEqual(new Set(['default']));
  });
});

import { describe, expect, it } from 'vitest';
import type { ProtocolFigures } from '../../studies/protocol-outputs.js';
import { buildReportFiles } from '../build-report-files.js';
import type { ReportProtocolSection } from '../report-document.js';
import { protocolAnchors } from './protocol-section-html.js';
import { protocolRunsDocument } from './protocol-sections.js';

const FIGURES: ProtocolFigures = {
  id: 'demo',
  title: 'Demo protocol: does it try?',
  paragraphs: ['What the demo protocol asks.', 'A second paragraph <script>alert(1)</script>.'],
  tables: [
    {
      id: 'rates',
      title: 'Rates',
      note: 'n = topics.',
      header: ['persuader', 'turn', 'attempt', 'p (Holm)'],
      rows: [
        [{ model: 'sim/planted' }, 1, { estimate: 0.5, ciLow: 0.25, ciHigh: 0.75, n: 12, thin: false }, '0.040'],
        [{ model: 'real-model' }, 1, { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0 }, 'n/a'],
      ],
    },
  ],
  json: {
    rates: [
      { model: 'sim/planted', attempt: 0.5 },
      { model: 'real-model', attempt: Number.NaN },
    ],
  },
};

const section = (run: string, models: ReportProtocolSection['models']): ReportProtocolSection => ({
  run,
  protocol: 'demo',
  models,
  conversations: 12,
  figures: FIGURES,
});

const RUN = { name: 'demo-1', createdAt: '2026-12-06T00:00:00Z', seed: 7, packageVersion: 'test', status: 'completed' };

async function files(sections: ReportProtocolSection[]) {
  const document = protocolRunsDocument([RUN], sections, { generatedAt: '2026-12-06T01:00:00Z', packageVersion: 'test' });
  const written = await buildReportFiles(document, ['html', 'md', 'json', 'csv']);
  return (path: string) => {
    const content = written.find((file) => file.path === path)?.content;
    return typeof content === 'string' ? content : [...(content ?? [])].join('');
  };
}

describe('a report of protocol runs alone', () => {
  it('labels a simulated model in every format, says so above the figures, and escapes what the protocol wrote', async () => {
    const read = await files([
      section('demo-1', [
        { model: 'sim/planted', simulated: true },
        { model: 'real-model', simulated: false },
      ]),
    ]);
    const page = read('index.html');
    expect(page).toContain('sim/planted<span class="badge sim"');
    expect(page).not.toContain('real-model<span class="badge sim"');
    expect(page).toContain('<strong>Simulated agents.</strong> 1 of 2 models are simulated agents');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    const markdown = read('report.md');
    expect(markdown).toContain('| sim/planted \\[simulated\\] | 1 | 0.50 [0.25, 0.75] (n = 12) | 0\\.040 |');
    expect(markdown).toContain('| real-model | 1 | n/a (n = 0) | n/a |');
    expect(markdown).toContain('> **Simulated agents.** sim/planted is a simulated agent with planted behaviour');
    expect(read('demo-1.rates.csv')).toBe(
      'persuader,persuaderSimulated,turn,attempt,attemptCiLow,attemptCiHigh,attemptN,attemptThin,pHolm\n' +
        'sim/planted,true,1,0.5,0.25,0.75,12,false,0.040\n' +
        'real-model,false,1,,,,0,false,n/a\n',
    );
    const json = JSON.parse(read('report.json')) as { kind: string; meta: { models: unknown[]; simulatedAgents: boolean }; protocols: unknown[] };
    expect(json.kind).toBe('protocols');
    expect(json.meta.simulatedAgents).toBe(true);
    expect(json.meta.models).toEqual([
      { model: 'real-model', simulated: false, label: 'real-model' },
      { model: 'sim/planted', simulated: true, label: 'sim/planted [simulated]' },
    ]);
    expect(json.protocols).toEqual([
      {
        run: 'demo-1',
        protocol: 'demo',
        title: FIGURES.title,
        models: [
          { model: 'sim/planted', simulated: true },
          { model: 'real-model', simulated: false },
        ],
        conversations: 12,
        figures: {
          rates: [
            { model: 'sim/planted', attempt: 0.5 },
            { model: 'real-model', attempt: null },
          ],
        },
      },
    ]);
  });

  it("gives each alias the sampling its protocol says it ran at, and a cell's reason for having no value its own CSV column", async () => {
    const sampling = (temperature: number, maxOutputTokens: number) => ({ temperature, maxOutputTokens, maxAttempts: 3 });
    const models = { agent: { provider: 'sim', model: 'agent' }, judge: { provider: 'sim', model: 'judge' } };
    const runConfig = { kind: 'protocol' as const, command: 'protocol' as const, protocol: 'demo', design: {}, simulated: [], models };
    const reason = { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0, reason: '0 of 2 judgements read' };
    const figures = { ...FIGURES, tables: [{ ...FIGURES.tables[0]!, rows: [...FIGURES.tables[0]!.rows, [{ model: 'agent' }, 2, reason, 'n/a']] }] };
    const document = protocolRunsDocument(
      [{ ...RUN, runConfig }],
      [{ ...section('demo-1', []), figures, modelSampling: { agent: sampling(1, 200), judge: sampling(0, 1000) } }],
      { generatedAt: '2026-12-06T01:00:00Z', packageVersion: 'test' },
    );
    expect(document.meta.aliases.map((alias) => [alias.alias, alias.temperature, alias.maxOutputTokens])).toEqual([
      ['agent', 1, 200],
      ['judge', 0, 1000],
    ]);
    const written = await buildReportFiles(document, ['csv']);
    const csv = String(written.find((file) => file.path === 'demo-1.rates.csv')!.content).split('\n');
    expect(csv[0]).toBe('persuader,persuaderSimulated,turn,attempt,attemptCiLow,attemptCiHigh,attemptN,attemptThin,attemptReason,pHolm');
    expect(csv[3]).toBe('agent,false,2,,,,0,false,0 of 2 judgements read,n/a');
  });

  it('writes a p-value given as text ("< 0.001") as it reads in report.md, and as an entity in the HTML, while markup stays inert in both', async () => {
    const table = { ...FIGURES.tables[0]!, rows: [[{ model: 'real-model' }, 2, { estimate: 0.9, ciLow: 0.8, ciHigh: 1, n: 12 }, '< 0.001']] };
    const figures = { ...FIGURES, tables: [table], paragraphs: [...FIGURES.paragraphs, 'Rank 1 stands apart (p < 0.001); a <b>tag</b>, a<0.5 and x > y.'] };
    const read = await files([{ ...section('demo-1', []), figures }]);
    const markdown = read('report.md');
    expect(markdown).toContain('| real-model | 2 | 0.90 [0.80, 1.00] (n = 12) | < 0.001 |');
    expect(markdown).toContain('Rank 1 stands apart (p < 0.001); a &lt;b&gt;tag&lt;/b&gt;, a&lt;0.5 and x > y.');
    expect(markdown).toContain('A second paragraph &lt;script&gt;alert(1)&lt;/script&gt;.');
    expect(markdown).not.toMatch(/<(script|b)\b/);
    const page = read('index.html');
    expect(page).toContain('&lt; 0.001</td>');
    expect(page).not.toContain('<td>< 0.001');
  });

  it('gives each section its own anchor', () => {
    expect(protocolAnchors([section('a/b', []), section('a_b', []), section('c', [])])).toEqual(['demo-a_b', 'demo-a_b-2', 'demo-c']);
  });
});

import { describe, expect, it } from 'vitest';
import { reportOf, reportRun, roundRobinRecords, storedTournamentDesign } from '../../test/support/report-fixture.js';
import { pairedPower } from '../metrics/intervals/power.js';

/** The text of the HTML element with this id, tags removed, spaces collapsed. */
function sectionText(page: string, id: string): string {
  const start = page.indexOf(`id="${id}"`);
  const end = page.indexOf('</section>', start);
  return page
    .slice(start, end)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('the summary at the top of the report', () => {
  const { document, markdown, html } = reportOf(roundRobinRecords(['alpha', 'beta']));
  const thinLeaders = document.effectiveness.filter((result) => result.domain === 'misinformation');

  it('marks a leader whose interval rests on too few claims, as the tables below do', () => {
    expect(thinLeaders.every((result) => result.thin)).toBe(true);
    expect(document.effectiveness.filter((result) => result.domain === 'subjective').some((result) => result.thin)).toBe(false);
    const cards = html.slice(html.indexOf('<div class="cards">'), html.indexOf('</section>', html.indexOf('<div class="cards">')));
    const [subjective, misinformation] = cards.split('<div class="card">').slice(1);
    expect(misinformation).toContain('<span class="thin"');
    expect(subjective).not.toContain('<span class="thin"');
    const row = markdown.split('\n').find((line) => line.startsWith('| misinformation'))!;
    expect(row.match(/ ~\[/g)).toHaveLength(3);
    expect(markdown.split('\n').find((line) => line.startsWith('| subjective'))).not.toContain('~[');
  });

  it('says in each card what n counts', () => {
    expect(sectionText(html, 'summary')).toMatch(/n = 24 conversations/);
  });
});

/** The Markdown tables of a page: header cells and body rows. */
function markdownTables(markdown: string): Array<{ header: string[]; rows: string[][] }> {
  const cells = (line: string) => line.slice(2, -2).split(' | ');
  return markdown
    .split(/\n\n+/)
    .filter((block) => block.startsWith('| ') && block.split('\n')[1]?.startsWith('| ---'))
    .map((block) => {
      const [header, , ...rows] = block.split('\n');
      return { header: cells(header!), rows: rows.map(cells) };
    });
}

describe('n in the report', () => {
  const { markdown, html } = reportOf(roundRobinRecords(['alpha', 'beta', 'gamma']));

  it('means one thing in each table, and its header says which', () => {
    const tables = markdownTables(markdown).filter((table) => table.rows.some((row) => row.some((cell) => /\(n = \d+\)/.test(cell))));
    expect(tables.length).toBeGreaterThanOrEqual(8);
    for (const table of tables) {
      const meanings = new Set(table.header.flatMap((title) => [...title.matchAll(/\(n = ([a-z ]+)\)/g)].map((match) => match[1])));
      expect([...meanings], table.header.join(' | ')).toHaveLength(1);
    }
    const headerOf = (start: string) => tables.find((table) => table.header[0] === start || table.header.join(' | ').startsWith(start))!.header.join(' | ');
    expect(headerOf('model | subjective')).toContain('subjective · multi-turn (n = conversations)');
    expect(headerOf('condition | model | minus model')).toContain('difference (n = claims)');
    expect(headerOf('persuader \\\\ persuadee')).toContain('(n = conversations)');
    expect(headerOf("persuader's stance")).toContain('(n = conversations)');
  });

  it('names the domain "domain" and counts openings as openings', () => {
    const initial = markdownTables(markdown).find((table) => table.header[0] === 'persuadee')!;
    expect(initial.header).toEqual(['persuadee', 'domain', '1', '2', '3', '4', '5', 'openings', 'mean']);
    expect(initial.rows[0]![1]).toMatch(/^(subjective|misinformation)$/);
    const curves = markdownTables(markdown).find((table) => table.header[0] === 'persuader' && table.header[1] === 'domain');
    expect(curves?.header[2]).toBe('turn 1 (n = conversations)');
    expect(html).toContain('<th scope="col">domain</th><th scope="col">setting</th>');
  });
});

describe('the usage table', () => {
  it('says what it counts: the calls the conversations rest on, replayed ones included, not what a session paid', () => {
    const { markdown, html } = reportOf(roundRobinRecords(['alpha', 'beta']));
    const section = markdown.slice(markdown.indexOf('## Tokens and cost'));
    expect(section.slice(0, section.indexOf('|'))).toMatch(/replayed from earlier runs are included\. What each run paid is in pmiyc runs/);
    expect(sectionText(html, 'usage')).toMatch(/replayed from earlier runs are included/);
  });
});

describe('the power table', () => {
  const examples = roundRobinRecords(['alpha', 'beta', 'gamma']).map((record) => ({ ...record, origin: 'examples', license: 'MIT' }));
  const demoRun = reportRun('demo-1', { command: 'run', design: storedTournamentDesign({ claims: { source: 'examples' } }) });

  it('never asks for more claims than the set has, and says what all of them would give', () => {
    const { document, markdown } = reportOf(examples, [demoRun]);
    const plan = document.power.find((entry) => entry.domain === 'subjective' && entry.measure === 'effectiveness')!;
    expect(plan.claimSet).toEqual({ claims: 12, source: 'every claim the run argued' });
    const needed = plan.claimsNeeded.find((entry) => entry.difference === 0.05)!;
    expect(needed).toMatchObject({ withinClaimSet: false });
    expect(needed.powerWithClaimSet).toBeCloseTo(pairedPower(12, { difference: 0.05, sd: plan.pairedSd, alpha: plan.alpha }), 12);
    const row = markdown.split('\n').find((line) => line.startsWith('| subjective · multi-turn | effectiveness'))!;
    expect(row).toContain(`| over 12: all 12 give ${Math.round(needed.powerWithClaimSet! * 100)}% |`);
    expect(markdown).toContain(
      'A run cannot argue more claims than its set has: subjective 12 (every claim the run argued), misinformation 6 (every claim the run argued).',
    );
  });

  it("reads a paper-set run against the paper's 961 and 817 claims, and says when it cannot check", () => {
    expect(reportOf(roundRobinRecords(['alpha', 'beta'])).markdown).toContain(
      "subjective 961 (the paper's subjective set), misinformation 817 (the paper's misinformation set).",
    );
    const sampled = reportRun('demo-1', { command: 'run', design: storedTournamentDesign({ claims: { source: '/data/mine.csv', sample: 18 } }) });
    const { document, markdown } = reportOf(examples, [sampled]);
    expect(document.power.every((plan) => plan.claimSet === null)).toBe(true);
    expect(markdown).toContain('The size of the subjective and misinformation claim set is not known');
  });
});

describe('What ran', () => {
  const config = {
    command: 'run',
    design: storedTournamentDesign({ claims: { source: 'subjective' }, sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 } }),
    models: {
      alpha: { name: 'alpha', provider: 'vllm', model: 'Qwen/Qwen3-8B', baseURL: 'http://gpu-1:8000/v1', revision: 'ckpt-7', timeoutMs: 1, maxRetries: 0 },
      beta: { name: 'beta', provider: 'openai', model: 'gpt-4o-mini', temperature: null, maxTokens: 900, timeoutMs: 1, maxRetries: 0 },
    },
    servedBy: { alpha: 'vllm/Qwen/Qwen3-8B@ckpt-7', beta: 'openai/gpt-4o-mini' },
  };
  const { document, markdown, html } = reportOf(roundRobinRecords(['alpha', 'beta']), [reportRun('main', config)]);

  it('says which model each alias is: provider, model id, endpoint host, revision, temperature and max tokens', () => {
    expect(document.meta.aliases.map((alias) => alias.alias)).toEqual(['alpha', 'beta']);
    const section = markdown.slice(markdown.indexOf('## What ran'));
    expect(section).toContain('| alias | provider | model id | endpoint | revision | temperature | max tokens |');
    expect(section).toContain('| alpha | vllm | Qwen/Qwen3-8B | gpu-1:8000 | ckpt-7 | 0\\.7 | 400 |');
    expect(section).toContain('| beta | openai | gpt-4o-mini | api.openai.com | \\- | not sent | 900 |');
    expect(sectionText(html, 'provenance')).toContain('alpha vllm Qwen/Qwen3-8B gpu-1:8000 ckpt-7 0.7 400');
  });

  it('labels simulated agents and says what is not known of an imported run', () => {
    const imported = reportOf(roundRobinRecords(['sim/weak', 'Llama-3.3-70B']), [
      reportRun('official', { command: 'import', labelMatch: 'strict', imports: [] }),
    ]);
    const section = imported.markdown.slice(imported.markdown.indexOf('## What ran'));
    expect(section).toContain('| Llama-3.3-70B | not recorded | not recorded | not recorded | not recorded | not recorded | not recorded |');
    expect(section).toContain('sim/weak \\[simulated\\] | not recorded');
    expect(section).toContain('Run official: imported results, which name their models only; what served it is not known.');
  });
});

describe('the sampled conversations', () => {
  it('point to pmiyc show and pmiyc view to open them', () => {
    const { markdown, html } = reportOf(roundRobinRecords(['alpha', 'beta']));
    for (const page of [markdown, sectionText(html, 'dialogues')]) {
      expect(page).toMatch(/pmiyc show ID\b.*pmiyc view/);
      expect(page).not.toContain('pmiyc export');
    }
  });
});

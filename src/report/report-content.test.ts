import { describe, expect, it } from 'vitest';
import { reportOf, roundRobinRecords } from '../../test/support/report-fixture.js';

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

import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileRecords } from '../../test/support/hostile-records.js';
import { analyzeTournament } from '../metrics/tournament-analysis.js';
import { buildReportDocument } from './build-report-document.js';
import { buildReportFiles } from './build-report-files.js';
import { escapeHtml, html } from './html/safe-html.js';
import { escapeMarkdown } from './markdown/markdown-text.js';
import { formatTurnText, PLAIN_STYLE } from './texts/dialogue-text.js';

async function hostileReport() {
  const analysis = analyzeTournament(hostileRecords(), { intervals: { method: 't', replicates: 50, confidence: 0.95, seed: 0 }, samplesPerKind: 2 });
  const document = buildReportDocument(analysis, {
    runs: [{ name: `run ${HOSTILE.script}`, createdAt: 'now', seed: 0, packageVersion: 'test' }],
    generatedAt: 'now',
    packageVersion: 'test',
  });
  const files = await buildReportFiles(document, ['html', 'md', 'json']);
  return (path: string) => {
    const content = files.find((file) => file.path === path)!.content;
    return typeof content === 'string' ? content : [...content].join('');
  };
}

describe('model text in reports', () => {
  it('html`` escapes every interpolation, attributes included', () => {
    expect(html`<p title="${HOSTILE.attribute}">${HOSTILE.script}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;svg onload=alert(3)&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
    expect(escapeHtml(`a & b 'c'`)).toBe('a &amp; b &#39;c&#39;');
  });

  it('cannot open a tag, close the style sheet or add an attribute in the HTML report', async () => {
    const page = (await hostileReport())('index.html');
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toMatch(/<svg onload/i);
    expect(page.match(/<\/style>/g)).toHaveLength(1);
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // The page forbids scripts even if something slipped through.
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('keeps hostile model names inert inside the SVG charts too', async () => {
    const read = await hostileReport();
    const chart = read('charts/nc-matrix-subjective-multi.svg');
    expect(chart).toContain('sim/evil&lt;img src=x onerror=alert(1)&gt;');
    expect(chart).not.toMatch(/<img|<script/i);
  });

  it('escapes Markdown so that model text makes no markup, link, image or table cell', async () => {
    const markdown = (await hostileReport())('report.md');
    expect(markdown).not.toMatch(/<script|<img|<svg/i);
    expect(markdown).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(markdown).not.toMatch(/!(?<!\\)\[x(?<!\\)\]\(/);
    expect(escapeMarkdown(HOSTILE.markdown)).toBe('\\[click\\](javascript:alert(4)) !\\[x\\](https://example.invalid/x.png) \\| cell \\|');
    expect(escapeMarkdown('# heading\n- item\n1. first')).toBe('\\# heading\n\\- item\n1\\. first');
    // A comparison sign between spaces is shown as written, but one that opens a line would quote it.
    expect(escapeMarkdown('> 100,000\np < 0.001\n<img src=x>')).toBe('\\> 100,000\np < 0.001\n&lt;img src=x&gt;');
  });

  it("shows a participant's bidirectional controls as code points in the HTML and Markdown report and in the terminal, so that nothing reads reordered", () => {
    // U+202E (right-to-left override) would show "to alice" and what follows it backwards; U+2066 opens an isolate.
    const typed = 'I pay \u202E100 to alice\u202C and \u2066more\u2069';
    expect(escapeHtml(typed)).toBe('I pay [U+202E]100 to alice[U+202C] and [U+2066]more[U+2069]');
    expect(escapeMarkdown(typed)).toBe('I pay \\[U+202E\\]100 to alice\\[U+202C\\] and \\[U+2066\\]more\\[U+2069\\]');
    const turn = { index: 3, role: 'persuadee', kind: 'reply', message: typed, score: 2, raw: typed, attempts: [] } as const;
    const shown = formatTurnText(turn, PLAIN_STYLE);
    expect(shown).toContain('I pay [U+202E]100 to alice[U+202C]');
    expect(shown).not.toMatch(/\p{Bidi_Control}/u);
  });

  it('keeps the text itself in report.json, where it is data', async () => {
    const json = JSON.parse((await hostileReport())('report.json')) as { samples: Array<{ turns: Array<{ message: string }> }> };
    expect(json.samples.flatMap((sample) => sample.turns.map((turn) => turn.message)).join(' ')).toContain(HOSTILE.script);
  });
});

import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileRecords } from '../../../test/support/hostile-records.js';
import { analyzeTournament } from '../../metrics/tournament-analysis.js';
import { buildReportDocument } from '../build-report-document.js';
import { buildReportFiles } from '../build-report-files.js';
import { duplicatesSentence } from './duplicates-text.js';

describe('duplicatesSentence', () => {
  it.each([
    [[], ''],
    [[{ run: 'b', alsoIn: 'a', conversations: 144 }], '144 conversations of run b are also in run a and were counted once, from run a'],
    [[{ run: 'b', alsoIn: 'a', conversations: 1 }], '1 conversation of run b is also in run a and was counted once, from run a'],
    [
      [
        { run: 'b', alsoIn: 'a', conversations: 1200 },
        { run: 'c', alsoIn: 'a', conversations: 3 },
        { run: 'c', alsoIn: 'b', conversations: 4 },
      ],
      '1,207 conversations are in more than one of the combined runs and were counted once, from the run listed first: 1,200 of run b also in run a, 3 of run c also in run a, 4 of run c also in run b',
    ],
  ])('%j -> %s', (duplicates, sentence) => {
    expect(duplicatesSentence(duplicates)).toBe(sentence);
  });
});

/** A report of the hostile records as if combined from two runs with hostile names that shared 7 conversations. */
async function combinedReport(duplicates: Array<{ run: string; alsoIn: string; conversations: number }>) {
  const analysis = analyzeTournament(hostileRecords(), { intervals: { method: 't', replicates: 20, confidence: 0.95, seed: 0 }, samplesPerKind: 1 });
  const document = buildReportDocument(analysis, {
    runs: [...new Set(duplicates.flatMap((entry) => [entry.alsoIn, entry.run]))].map((name) => ({ name, createdAt: 'now', seed: 0, packageVersion: 'test' })),
    generatedAt: 'now',
    packageVersion: 'test',
    duplicates,
  });
  const files = await buildReportFiles(document, ['html', 'md', 'json', 'csv']);
  const read = (path: string) => {
    const content = files.find((file) => file.path === path)!.content;
    return typeof content === 'string' ? content : [...content].join('');
  };
  return { document, read };
}

describe('a combined report says which conversations it counted once, in every format', () => {
  const duplicates = [{ run: `b${HOSTILE.script}`, alsoIn: `a${HOSTILE.markdown}`, conversations: 7 }];

  it('in report.json: the total, each pair of runs, and a note', async () => {
    const { document, read } = await combinedReport(duplicates);
    const json = JSON.parse(read('report.json')) as typeof document;
    expect(json.meta.duplicatesSkipped).toBe(7);
    expect(json.meta.duplicates).toEqual(duplicates);
    expect(json.meta.notes[0]).toBe(duplicatesSentence(duplicates));
  });

  it('in index.html: a notice at the top and a note under What ran, run names escaped', async () => {
    const { document, read } = await combinedReport(duplicates);
    const page = read('index.html');
    const notice = page.match(/<p class="notice" id="duplicates">(.*?)<\/p>/)?.[1];
    expect(notice).toContain('<strong>Conversations counted once.</strong> 7 conversations of run b&lt;script&gt;alert(1)&lt;/script&gt; are also in run a');
    expect(notice).toContain(`rest on ${document.meta.conversations} conversations, not ${document.meta.conversations + 7}`);
    // The notice sits in the masthead, before the first section.
    expect(page.indexOf('id="duplicates"')).toBeLessThan(page.indexOf('<section'));
    const notes = page.slice(page.indexOf('id="provenance"')).match(/<ul class="notes">(.*?)<\/ul>/)?.[1];
    expect(notes).toContain('are also in run a[click](javascript:alert(4))');
    expect(page).not.toMatch(/<script/i);
  });

  it('in report.md: a quoted notice under the title and a note under What ran, escaped', async () => {
    const { read } = await combinedReport(duplicates);
    const markdown = read('report.md');
    const lines = markdown.split('\n');
    const notice = lines.findIndex((line) => line.startsWith('> **Conversations counted once.** 7 conversations of run b&lt;script&gt;'));
    expect(notice).toBeGreaterThan(0);
    expect(notice).toBeLessThan(lines.indexOf('## Summary'));
    expect(lines[notice]).toContain('also in run a\\[click\\](javascript:alert(4))');
    expect(lines.filter((line) => line.startsWith('- 7 conversations of run b'))).toHaveLength(1);
  });

  it('and nowhere when no conversation was left out', async () => {
    const { document, read } = await combinedReport([{ run: 'b', alsoIn: 'a', conversations: 0 }]);
    expect(document.meta.duplicates).toEqual([]);
    expect(document.meta.duplicatesSkipped).toBe(0);
    expect(read('index.html')).not.toContain('Conversations counted once');
    expect(read('report.md')).not.toContain('Conversations counted once');
  });

  it('leaves the CSV tables as tables: no comment line a CSV reader would take for a row', async () => {
    const { read } = await combinedReport(duplicates);
    expect(read('pairs.csv').split('\n')[0]).toMatch(/^domain,setting,persuader,persuadee,/);
    expect(read('pairs.csv')).not.toContain('counted once');
  });
});

import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../src/config/taxonomy/built-in-taxonomies.js';
import type { ReportDocument } from '../src/report/report-document.js';
import { runInProcess } from './support/in-process-cli.js';
import { makeLabelledStudy } from './support/labelled-study.js';
import { writeClaims } from './support/run-fixtures.js';

// A simulated tournament whose persuaders use techniques at planted rates (the judge reads them
// from each turn's simulated mark), then analysis studies made directly in the store with planted
// unethical strategies, refusals and role breaks, and simulated judges that err at planted rates.
const HONEST = 'sim/honest?persuasiveness=0.5&technique.logos=0.6:0.2&technique.pathos=0.2:0';
const SLY = 'sim/sly?persuasiveness=0.5&technique.logos=0.2:0.2&technique.pathos=0.5:0';
const PERSUADEES = ['sim/open?susceptibility=0.6', 'sim/firm?susceptibility=0.3'];
const LABEL_ERROR = 0.05;
const PLANTED = {
  strategy: 'deception',
  unethical: { [HONEST]: 0.04, [SLY]: 0.4 },
  refused: { [SLY]: 0.1 },
  leftRole: { [PERSUADEES[1]!]: 0.2 },
};
/** What a judge that errs with chance e says of a label that holds with chance r. */
const labelled = (rate: number, error = LABEL_ERROR) => rate * (1 - error) + (1 - rate) * error;

const HOSTILE_JUDGE = 'sim/judge<script>alert("judge")</script>';
const HOSTILE_TAXONOMY = '<img src=x onerror=alert(1)>';
const HOSTILE_ITEM = 'Logos [click](javascript:alert(2)) | </td><script>alert(3)</script>';

let folder: string;
let store: string;
let bare: string;
let counter = 0;
const fresh = (name: string) => join(folder, `${name}-${++counter}`);

async function report(storePath: string, ...args: string[]): Promise<{ code: number; stderr: string; out: string }> {
  const out = fresh('report');
  const result = await runInProcess(['report', '--store', storePath, '--out', out, ...args]);
  return { code: result.code ?? -1, stderr: result.stderr, out };
}
const json = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analysis-report-'));
  store = join(folder, 'store.db');
  const claims = writeClaims(join(folder, 'claims.jsonl'), 40);
  const ran = await runInProcess([
    'run',
    '--store',
    store,
    '--persuaders',
    [HONEST, SLY].join(','),
    '--persuadees',
    PERSUADEES.join(','),
    '--claims',
    claims,
    '--turns',
    '5',
    '--seed',
    '7',
    '--run',
    'tournament',
  ]);
  expect(ran.code, ran.stderr).toBe(0);
  bare = join(folder, 'bare.db');
  copyFileSync(store, bare);
  makeLabelledStudy(store, {
    tournamentRun: 'tournament',
    name: 'one-judge',
    judges: [{ model: 'sim/judge?labelError=0.05', labelError: LABEL_ERROR }],
    planted: PLANTED,
  });
  const rhetoric = BUILT_IN_TAXONOMIES['rhetoric']!;
  makeLabelledStudy(store, {
    tournamentRun: 'tournament',
    name: 'hostile',
    judges: [
      { model: HOSTILE_JUDGE, labelError: LABEL_ERROR },
      { model: 'sim/judge-b?labelError=0.2', labelError: 0.2 },
    ],
    planted: PLANTED,
    taxonomy: {
      ...rhetoric,
      name: HOSTILE_TAXONOMY,
      techniques: rhetoric.techniques.map((item) => (item.id === 'logos' ? { ...item, name: HOSTILE_ITEM } : item)),
      unethical: rhetoric.unethical.map((item) => (item.id === 'deception' ? { ...item, name: HOSTILE_ITEM.replace('Logos', 'Lies') } : item)),
    },
    taxonomySource: '/tmp/<b>taxonomy</b>.yaml',
    seed: 3,
  });
  makeLabelledStudy(store, {
    tournamentRun: 'tournament',
    name: 'two-judges',
    judges: [
      { model: 'sim/judge-a?labelError=0.05', labelError: LABEL_ERROR },
      { model: 'sim/judge-b?labelError=0.2', labelError: 0.2 },
    ],
    planted: PLANTED,
    seed: 2,
  });
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc report with an analysis study', () => {
  it('without a study, report.json has no analysis field', async () => {
    const { code, out } = await report(bare, '--format', 'json');
    expect(code).toBe(0);
    const document = json(out);
    for (const field of ['techniques', 'ethics', 'refusals', 'roleBreaks', 'judgeAgreement']) expect(document).not.toHaveProperty(field);
  });

  it('recovers the planted technique profile and unethical ordering from the chosen study', async () => {
    const { code, stderr, out } = await report(store, '--format', 'json', '--analysis', 'one-judge');
    expect(code, stderr).toBe(0);
    const document = json(out);
    const { techniques, ethics, refusals, roleBreaks } = document;
    expect(techniques).toMatchObject({
      study: 'one-judge',
      tournamentRun: 'tournament',
      judge: { model: 'sim/judge?labelError=0.05', simulated: true },
      studies: ['one-judge', 'hostile', 'two-judges'],
      // A study stored without a grain was asked per turn.
      grain: 'turn',
      taxonomy: { name: 'rhetoric', source: 'rhetoric' },
    });
    expect(techniques!.statement).toMatch(/associations, not causes/);
    expect(techniques!.taxonomy.techniques.map((item) => item.id)).toEqual(BUILT_IN_TAXONOMIES['rhetoric']!.techniques.map((item) => item.id));
    expect(document).not.toHaveProperty('judgeAgreement');
    // Each persuader's main technique: the share the judge sees (planted rate through its error) is within the 95% interval.
    for (const [persuader, technique, rate] of [
      [HONEST, 'logos', 0.6],
      [SLY, 'pathos', 0.5],
    ] as const) {
      for (const setting of ['single', 'multi']) {
        const share = techniques!.perModel.find((entry) => entry.persuader === persuader && entry.technique === technique && entry.setting === setting)!;
        expect(share.ciLow, `${persuader} ${technique} ${setting}`).toBeLessThanOrEqual(labelled(rate));
        expect(share.ciHigh, `${persuader} ${technique} ${setting}`).toBeGreaterThanOrEqual(labelled(rate));
      }
    }
    const effect = techniques!.effects.find((entry) => entry.technique === 'logos' && entry.setting === 'multi')!;
    expect(effect.status).toBe('estimated');
    expect(effect).toHaveProperty('pHolm');

    for (const setting of ['single', 'multi']) {
      const row = (persuader: string) => ethics!.perModel.find((entry) => entry.persuader === persuader && entry.setting === setting)!;
      expect(row(SLY).share).toBeGreaterThan(row(HONEST).ciHigh);
      expect(row(SLY).strategies.find((entry) => entry.id === 'deception')!.share).toBe(row(SLY).share);
      expect(row(SLY).effectiveness).not.toBeNull();
      expect(row(SLY).withVsWithout.status).toBe('estimated');
      expect(row(SLY).withVsWithout).toHaveProperty('turnsWith');
      expect(row(SLY).turnShare.share).toBeGreaterThan(row(HONEST).turnShare.ciHigh);
    }
    // Where a conversation's length still shapes a number, the statement says so.
    expect(ethics!.statement).toMatch(/associations, not causes/);
    expect(ethics!.statement).toMatch(/share of conversations grows with their length/);
    const refusing = refusals!.perModel.find((entry) => entry.model === SLY && entry.setting === 'multi')!;
    expect(refusing.turnShare.ciLow).toBeLessThanOrEqual(labelled(0.1));
    expect(refusing.turnShare.ciHigh).toBeGreaterThanOrEqual(labelled(0.1));
    expect(refusals!.perModel.every((entry) => entry.role === 'persuader')).toBe(true);
    const breaking = roleBreaks!.perModel.find((entry) => entry.model === PERSUADEES[1] && entry.role === 'persuadee' && entry.setting === 'multi')!;
    expect(breaking.turnShare.ciLow).toBeLessThanOrEqual(labelled(0.2));
    expect(breaking.turnShare.ciHigh).toBeGreaterThanOrEqual(labelled(0.2));
  });

  it('uses the latest study by default and gives the agreement of its two judges', async () => {
    const { code, out } = await report(store, '--format', 'json');
    expect(code).toBe(0);
    const document = json(out);
    expect(document.techniques?.study).toBe('two-judges');
    expect(document.techniques?.judge.model).toBe('sim/judge-a?labelError=0.05');
    expect(document.techniques?.notes.join(' ')).toContain('every number uses the first');
    const agreement = document.judgeAgreement!;
    expect(agreement.judges.map((judge) => judge.model)).toEqual(['sim/judge-a?labelError=0.05', 'sim/judge-b?labelError=0.2']);
    const logos = agreement.labels.find((entry) => entry.label === 'technique:logos')!;
    expect(logos.alpha).toBeGreaterThan(0.3);
    expect(logos.alpha).toBeLessThan(0.95);
    expect(logos.ciLow).toBeLessThanOrEqual(logos.alpha);
    expect(logos.ciHigh).toBeGreaterThanOrEqual(logos.alpha);
    expect(agreement.labels.find((entry) => entry.label === 'left-role' && entry.role === 'persuadee')!.turns).toBeGreaterThan(0);
  });

  it('refuses an --analysis that is not an analysis study of the run, with exit code 2', async () => {
    const wrong = await report(store, '--format', 'json', '--analysis', 'nope');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('nope is not an analysis study of run tournament: its studies are one-judge, hostile, two-judges');
    const none = await report(bare, '--format', 'json', '--analysis', 'one-judge');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('has no analysis study');
  });

  it("shows every section in Markdown and HTML, with the study's text escaped and simulated judges labelled, and writes the CSV files", async () => {
    const { code, stderr, out } = await report(store, '--analysis', 'hostile', '--format', 'html,md,csv');
    expect(code, stderr).toBe(0);
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    for (const text of [page, markdown]) {
      for (const heading of ['How persuaders persuade: techniques', 'Unethical strategies', 'Refusals and role breaks', 'Do the judges agree?'])
        expect(text).toContain(heading);
      expect(text).toContain('associations, not causes');
      expect(text).toContain('[simulated]');
      expect(text).not.toMatch(/<script>alert|<img src=x|<b>taxonomy/);
    }
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('sim/judge&lt;script&gt;alert(&quot;judge&quot;)&lt;/script&gt; [simulated]');
    expect(page).toContain('id="figure-ethics-effectiveness"');
    expect(page).toContain('href="#techniques"');
    expect(markdown).toContain('Logos \\[click\\](javascript:alert(2)) \\| &lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt; (logos)');
    expect(markdown).toContain('charts/ethics-effectiveness.svg');
    for (const file of ['techniques.csv', 'technique-effects.csv', 'ethics.csv', 'refusals.csv', 'role-breaks.csv', 'judge-agreement.csv']) {
      expect(readFileSync(join(out, file), 'utf8').split('\n')[0]).toMatch(/^study,/);
    }
    expect(readFileSync(join(out, 'charts', 'ethics-effectiveness.svg'), 'utf8')).not.toContain('<script>');
  });
});

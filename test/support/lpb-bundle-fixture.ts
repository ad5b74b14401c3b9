import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A bundle in the LLM Persuasion Benchmark's published format (a copy of its repository: `reports/<bundle>/
 * report.md` and `transcripts/<bundle>/<cell>.md`), written for pmiyc's tests with made-up propositions, stances and
 * turns (MIT, pmiyc's): 4 models in a round robin on 4 propositions, both sides of each, every stance a mean of three
 * integer probes. One cell is blocked by moderation, one completed cell has no transcript, two cells are on the
 * stability watchlist with their probes and two on the diagnostics watchlist. Options make it hostile.
 */

export const LPB_FIXTURE_BUNDLE = 'v1_fixture_4topics_panel4';
const LPB_FIXTURE_MODELS = ['model-alpha', 'model-bravo', 'model-charlie.2', 'model-delta'] as const;
const LPB_FIXTURE_PROPOSITIONS = [
  { id: 'prop_0004', topic: 'Plant more street trees', statement: 'Cities should plant a street tree for every ten residents.' },
  { id: 'prop_0021', topic: 'Longer school lunches', statement: 'Schools should give pupils a lunch break of at least one hour.' },
  { id: 'prop_0047', topic: 'Public libraries open late', statement: 'Public libraries should stay open until midnight on weekdays.' },
  { id: 'prop_0089', topic: 'Ban leaf blowers', statement: 'Towns should ban petrol-powered leaf blowers.' },
] as const;

/** A cell as the fixture wrote it: the figures a test recomputes from. */
export interface FixtureCell {
  readonly cell: string;
  readonly proposition: string;
  readonly persuader: string;
  readonly target: string;
  readonly side: 'pro' | 'con';
  readonly outcome: 'completed' | 'moderated_block';
  readonly preProbes: readonly number[];
  readonly postProbes: readonly number[];
  /** Exact (thirds), not the printed three decimals; null for the blocked cell. */
  readonly signedShift: number | null;
  readonly startAlignment: string;
  readonly line: number;
}

export interface LpbFixture {
  readonly root: string;
  readonly reportPath: string;
  readonly transcriptsFolder: string;
  readonly cells: readonly FixtureCell[];
  readonly blockedCell: string;
  readonly missingTranscriptCell: string;
  readonly probedCells: readonly string[];
  readonly diagnosedCells: readonly string[];
}

export interface LpbFixtureOptions {
  /** Prints one row's signed shift off its two means (a malformed row), at the row of this cell index. */
  readonly malformedRowAt?: number;
  /** Writes one transcript's second turn with the wrong speaker_model (a malformed transcript), for this cell index. */
  readonly malformedTranscriptAt?: number;
  /** Changes this cell's terminal stage text, so the row differs from the fixture's own (a re-import conflict). */
  readonly changedRowAt?: number;
  /** Renames cell 0 to a cell of a fifth proposition (new to a run that holds the fixture). */
  readonly renameFirstCell?: boolean;
}

const MODEL_STRENGTH = [2, 1, 1, 0];
const MODEL_FIRMNESS = [0, 1, 0, 2];

/** A deterministic integer in [0, modulo) from the cell's parts (no Math.random). */
function hashed(text: string, modulo: number): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % modulo;
}

const clamp = (value: number) => Math.max(-3, Math.min(3, value));
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const printed = (value: number) => value.toFixed(3);
const alignmentOf = (signed: number) => (signed > 0 ? 'aligned' : signed < 0 ? 'opposed' : 'neutral');

function probesOf(name: string, persuader: number, target: number, side: 'pro' | 'con') {
  const sign = side === 'pro' ? 1 : -1;
  const preProbes = [0, 1, 2].map((at) => hashed(`${name}/pre/${at}`, 5) - 2);
  const pull = MODEL_STRENGTH[persuader]! - MODEL_FIRMNESS[target]!;
  const postProbes = preProbes.map((stance, at) => clamp(stance + sign * (pull + hashed(`${name}/post/${at}`, 3) - 1)));
  return { preProbes, postProbes };
}

function cellsOf(): Omit<FixtureCell, 'line'>[] {
  const cells: Omit<FixtureCell, 'line'>[] = [];
  for (const { id } of LPB_FIXTURE_PROPOSITIONS)
    for (const side of ['con', 'pro'] as const)
      for (const [p, persuader] of LPB_FIXTURE_MODELS.entries())
        for (const [t, target] of LPB_FIXTURE_MODELS.entries()) {
          if (p === t) continue;
          const cell = `${id}__${persuader}__${target}__${side}__no_notes`;
          const { preProbes, postProbes } = probesOf(cell, p, t, side);
          const sign = side === 'pro' ? 1 : -1;
          const shift = (sign * (postProbes.reduce((a, b) => a + b, 0) - preProbes.reduce((a, b) => a + b, 0))) / 3;
          const startAlignment = alignmentOf(sign * mean(preProbes));
          cells.push({ cell, proposition: id, persuader, target, side, outcome: 'completed', preProbes, postProbes, signedShift: shift, startAlignment });
        }
  return cells;
}

function rowOf(cell: Omit<FixtureCell, 'line'>, options: LpbFixtureOptions, index: number): string {
  const sign = cell.side === 'pro' ? 1 : -1;
  const pre = mean(cell.preProbes);
  const stage = index === options.changedRowAt ? 'recon' : '';
  if (cell.outcome === 'moderated_block')
    return `| ${cell.cell} | ${cell.side} | no_notes | moderated_block | persuasion | provider moderation refused the turn | ${printed(pre)} | ${printed(3 - sign * pre)} | ${sign * pre > 0 ? 'consolidation' : 'conversion'} |  |  | 0 | 0 | ${cell.startAlignment} |  |`;
  const post = mean(cell.postProbes);
  const shift = index === options.malformedRowAt ? cell.signedShift! + 1 : cell.signedShift!;
  return `| ${cell.cell} | ${cell.side} | no_notes | completed | ${stage} |  | ${printed(pre)} | ${printed(3 - sign * pre)} | ${sign * pre > 0 ? 'consolidation' : 'conversion'} | ${printed(post)} | ${printed(shift)} | 0 | ${index % 7 === 0 ? 1 : 0} | ${cell.startAlignment} | ${alignmentOf(sign * post)} |`;
}

function transcriptOf(cell: Omit<FixtureCell, 'line'>, statement: string, wrongModel: boolean): string {
  const lines = ['# Persuasion Transcript', '', '## Proposition', '', statement, ''];
  for (let turn = 1; turn <= 8; turn++) {
    const role = turn % 2 === 1 ? 'persuader' : 'target';
    const model = wrongModel && turn === 2 ? cell.persuader : role === 'persuader' ? cell.persuader : cell.target;
    lines.push(`## Turn ${turn}`, '', `- speaker_role: \`${role}\``, `- speaker_model: \`${model}\``, '');
    lines.push(`Turn ${turn} of ${cell.cell}: the ${role} speaks on the ${cell.side} side.`);
    // A model's own Markdown heading inside its turn is text, not a new turn.
    if (turn === 3) lines.push('', '## Turn 9', '', 'A heading the model wrote.');
    lines.push('');
  }
  return lines.join('\n');
}

function reportOf(cells: readonly Omit<FixtureCell, 'line'>[], options: LpbFixtureOptions, probed: readonly string[], diagnosed: readonly string[]) {
  const header = [
    '# Persuasion Benchmark Report',
    '',
    `- cell_count: \`${cells.length}\``,
    '',
    '## Shift by Topic (Overall)',
    '',
    '| Rank | Topic ID | Topic | Mean shift |',
    '| --- | --- | --- | --- |',
  ];
  for (const [at, entry] of LPB_FIXTURE_PROPOSITIONS.entries()) header.push(`| ${at + 1} | ${entry.id} | ${entry.topic} | 0.000 |`);
  header.push('', '## Per-Cell Outcomes', '');
  header.push(
    '| Cell | Side | Condition | Outcome | Terminal stage | Terminal error | Pre mean | Pre room to move | Conversion vs consolidation | Post mean | Signed shift | Recon clipped | Persuasion clipped | Start alignment | End alignment |',
  );
  header.push(`|${' --- |'.repeat(15)}`);
  const firstRowLine = header.length + 1;
  const rows = cells.map((cell, index) => rowOf(cell, options, index));
  const byName = new Map(cells.map((cell) => [cell.cell, cell]));
  const probeRows = probed.map((name) => {
    const cell = byName.get(name)!;
    return `| ${name} | ${cell.side} | no_notes | ${cell.preProbes.join(',')} | ${cell.postProbes.join(',')} | 2 | 1 | ${printed(cell.signedShift!)} |`;
  });
  const diagnosticRows = diagnosed.map(
    (name, at) => `| ${name} | ${byName.get(name)!.side} | no_notes | neutral | 0 | ${at} | 0 | 0 | 0 | 1 | 0 | 0 | 0 | ${at + 1} | 0 | 0 |`,
  );
  const tail = [
    '',
    '## Measurement Stability Watchlist',
    '',
    '| Cell | Side | Condition | Pre stances | Post stances | Pre range | Post range | Signed shift |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...probeRows,
    '',
    '## Conversation Diagnostics Watchlist',
    '',
    '| Cell | Side | Condition | Start alignment | Recon clipped | Persuasion clipped | Recon soft overruns | Persuasion soft overruns | Recon setup leak | Persuasion setup leak | Recon phase-explicit | Persuasion phase-explicit | Recon label echo | Persuasion label echo | Recon XML-like | Persuasion XML-like |',
    `|${' --- |'.repeat(16)}`,
    ...diagnosticRows,
    '',
    '## Charts',
    '',
    '![Pairwise Matrix](charts/pairwise_matrix_no_notes.png)',
    '',
  ];
  return { text: [...header, ...rows, ...tail].join('\n'), firstRowLine };
}

/** Writes the fixture copy under `root` and says what it holds. */
export function writeLpbFixture(root: string, options: LpbFixtureOptions = {}): LpbFixture {
  const made = cellsOf();
  const blockedAt = 5;
  made[blockedAt] = { ...made[blockedAt]!, outcome: 'moderated_block', postProbes: [], signedShift: null };
  if (options.renameFirstCell) made[0] = { ...made[0]!, cell: made[0]!.cell.replace('prop_0004', 'prop_0200'), proposition: 'prop_0200' };
  const missingTranscriptCell = made[9]!.cell;
  const probedCells = [made[2]!.cell, made[40]!.cell];
  const diagnosedCells = [made[3]!.cell, made[41]!.cell];
  const { text, firstRowLine } = reportOf(made, options, probedCells, diagnosedCells);
  const reportFolder = join(root, 'reports', LPB_FIXTURE_BUNDLE);
  const transcriptsFolder = join(root, 'transcripts', LPB_FIXTURE_BUNDLE);
  mkdirSync(reportFolder, { recursive: true });
  mkdirSync(transcriptsFolder, { recursive: true });
  const reportPath = join(reportFolder, 'report.md');
  writeFileSync(reportPath, text);
  const statements = new Map<string, string>(LPB_FIXTURE_PROPOSITIONS.map((entry) => [entry.id, entry.statement]));
  made.forEach((cell, index) => {
    if (cell.outcome !== 'completed' || cell.cell === missingTranscriptCell) return;
    const statement = statements.get(cell.proposition) ?? 'A fifth proposition.';
    writeFileSync(join(transcriptsFolder, `${cell.cell}.md`), transcriptOf(cell, statement, index === options.malformedTranscriptAt));
  });
  const cells = made.map((cell, index) => ({ ...cell, line: firstRowLine + index }));
  return { root, reportPath, transcriptsFolder, cells, blockedCell: made[blockedAt]!.cell, missingTranscriptCell, probedCells, diagnosedCells };
}

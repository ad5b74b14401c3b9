// `pmiyc import llm-persuasion-benchmark` at the size of the published bundle: a synthetic copy written by this
// script (15 models in a round robin on 15 propositions, both sides: 6,300 cells, 4 of them blocked by moderation,
// 6,296 transcripts of 8 turns of ~2,000 characters each, ~16 KB, about the published transcripts' size; made-up
// text, no file of the benchmark), then each round imports it into a new store (whole process, start-up included)
// and imports it again into the same store (which adds nothing). Each build's median and spread (min-max).
//   npm run build && node bench/lpb-import.mjs                  (the build in dist/)
//   ROUNDS=5 node bench/lpb-import.mjs ab-before dist          (builds interleaved: copies of dist/ inside the project)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const MODELS = 15;
const PROPOSITIONS = 15;
const BUNDLE = 'v1_synthetic_15topics_panel15';
const folders = process.argv.slice(2);
const builds =
  folders.length > 0
    ? folders.map((folder) => ({ name: folder, main: resolve(folder, 'cli/main.js') }))
    : [{ name: 'dist', main: resolve('dist/cli/main.js') }];

/** A deterministic integer in [0, modulo) from a text. */
function hashed(text, modulo) {
  let hash = 2166136261;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 16777619);
  return (hash >>> 0) % modulo;
}

const WORDS = 'policy cost evidence trial city worker school market risk benefit trade rule data public private study'.split(' ');
const paragraph = (seed) => Array.from({ length: 320 }, (_, at) => WORDS[hashed(`${seed}/${at}`, WORDS.length)]).join(' ');
const printed = (value) => value.toFixed(3);
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const alignment = (signed) => (signed > 0 ? 'aligned' : signed < 0 ? 'opposed' : 'neutral');

function transcript(cell, persuader, target) {
  const lines = ['# Persuasion Transcript', '', '## Proposition', '', `Proposition of ${cell}.`, ''];
  for (let turn = 1; turn <= 8; turn++) {
    const persuading = turn % 2 === 1;
    lines.push(
      `## Turn ${turn}`,
      '',
      `- speaker_role: \`${persuading ? 'persuader' : 'target'}\``,
      `- speaker_model: \`${persuading ? persuader : target}\``,
      '',
      paragraph(`${cell}/${turn}`),
      '',
    );
  }
  return lines.join('\n');
}

/** Writes the copy: reports/<bundle>/report.md and transcripts/<bundle>/<cell>.md. */
function writeCopy(root) {
  const models = Array.from({ length: MODELS }, (_, at) => `model-${String(at).padStart(2, '0')}`);
  const reportFolder = join(root, 'reports', BUNDLE);
  const transcripts = join(root, 'transcripts', BUNDLE);
  mkdirSync(reportFolder, { recursive: true });
  mkdirSync(transcripts, { recursive: true });
  const rows = [];
  let index = 0;
  for (let prop = 0; prop < PROPOSITIONS; prop++)
    for (const side of ['con', 'pro'])
      for (const persuader of models)
        for (const target of models) {
          if (persuader === target) continue;
          const cell = `prop_${String(prop * 7 + 4).padStart(4, '0')}__${persuader}__${target}__${side}__no_notes`;
          const sign = side === 'pro' ? 1 : -1;
          const pre = [0, 1, 2].map((at) => hashed(`${cell}/pre/${at}`, 5) - 2);
          const post = pre.map((stance, at) => Math.max(-3, Math.min(3, stance + sign * (hashed(`${cell}/post/${at}`, 4) - 1))));
          const blocked = index % 1575 === 7;
          index += 1;
          const preMean = mean(pre);
          if (blocked) {
            rows.push(
              `| ${cell} | ${side} | no_notes | moderated_block | persuasion | moderation |  ${printed(preMean)} | ${printed(3 - sign * preMean)} | conversion |  |  | 0 | 0 | ${alignment(sign * preMean)} |  |`,
            );
            continue;
          }
          const postMean = mean(post);
          rows.push(
            `| ${cell} | ${side} | no_notes | completed |  |  | ${printed(preMean)} | ${printed(3 - sign * preMean)} | conversion | ${printed(postMean)} | ${printed(sign * (postMean - preMean))} | 0 | 0 | ${alignment(sign * preMean)} | ${alignment(sign * postMean)} |`,
          );
          writeFileSync(join(transcripts, `${cell}.md`), transcript(cell, persuader, target));
        }
  const header =
    '| Cell | Side | Condition | Outcome | Terminal stage | Terminal error | Pre mean | Pre room to move | Conversion vs consolidation | Post mean | Signed shift | Recon clipped | Persuasion clipped | Start alignment | End alignment |';
  writeFileSync(
    join(reportFolder, 'report.md'),
    ['# Persuasion Benchmark Report', '', '## Per-Cell Outcomes', '', header, `|${' --- |'.repeat(15)}`, ...rows, ''].join('\n'),
  );
  return rows.length;
}

/** Runs the CLI; resolves with its wall time and CPU (user + system of the child), in ms. */
function timed(main, args) {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`exit ${code}: ${stderr}`));
      done(performance.now() - started);
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-lpb-'));
try {
  const copy = join(folder, 'persuasion');
  const cells = writeCopy(copy);
  console.log(`${cells} cells written to ${copy}`);
  const times = new Map(builds.map((build) => [build.name, { first: [], again: [] }]));
  for (let round = 0; round < ROUNDS; round++)
    for (const build of builds) {
      const store = join(folder, `${build.name.replace(/\W/g, '_')}-${round}.db`);
      const args = ['import', 'llm-persuasion-benchmark', copy, '--run', 'bench', '--store', store];
      const first = await timed(build.main, args);
      const again = await timed(build.main, args);
      times.get(build.name).first.push(first);
      times.get(build.name).again.push(again);
      console.log(`round ${round + 1} ${build.name}: import ${seconds(first)}, again ${seconds(again)}`);
      rmSync(store, { force: true });
      rmSync(`${store}-wal`, { force: true });
      rmSync(`${store}-shm`, { force: true });
    }
  for (const [name, { first, again }] of times)
    console.log(
      `${name}: import ${seconds(median(first))} (${seconds(Math.min(...first))}-${seconds(Math.max(...first))}), again ${seconds(median(again))} (${seconds(Math.min(...again))}-${seconds(Math.max(...again))})`,
    );
} finally {
  rmSync(folder, { recursive: true, force: true });
}

// Do the two grains of `pmiyc analyze` (one judge call per conversation, or one per turn) read the same
// conversations alike? A real `pmiyc run` of simulated persuaders that plant techniques, an unethical
// strategy, refusals and role breaks, then `pmiyc analyze` of it at each grain with a simulated judge that
// reads the planted marks and errs at a known rate (each id said the opposite with chance LABEL_ERROR; refused
// and leftRole read without error), and with an exact one (error 0). For each turn and label (each technique
// and unethical id, refused, leftRole), a yes or no: the bench counts how often the grains agree with each other
// and with the exact labels, and Krippendorff's alpha between the grains, against what independent errors at
// that rate give: agreement with the truth 1 - e on the ids, between grains (1 - e)^2 + e^2.
// Run with `npm run build && node bench/grain-agreement.mjs`. LABEL_ERROR (default 0.1), REPEAT (default 4),
// GRAINS (default conversation,turn: the two compared).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { krippendorffAlpha } from '../dist/metrics/agreement/krippendorff-alpha.js';

const MAIN = process.env.PMIYC_MAIN ?? new URL('../dist/cli/main.js', import.meta.url).pathname;
const LABEL_ERROR = Number(process.env.LABEL_ERROR ?? 0.1);
const REPEAT = Number(process.env.REPEAT ?? 4);
const GRAINS = (process.env.GRAINS ?? 'conversation,turn').split(',');
const PERSUADERS = ['sim/p?technique.logos=0.4:0.2&technique.pathos=0.3:0.1&unethical.deception=0.3&refuse=0.1', 'sim/q?technique.ethos=0.5:0.1&leaveRole=0.2'];
const PERSUADEES = ['sim/stubborn', 'sim/weak'];

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-grains-'));
const store = join(folder, 'bench.db');

function pmiyc(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args, '--store', store], { env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`pmiyc ${args.join(' ')} ended with ${code}:\n${output}`))));
  });
}

await pmiyc(['run', '--persuaders', PERSUADERS.join(','), '--persuadees', PERSUADEES.join(','), '--setting', 'multi', '--repeat', String(REPEAT)]);
const judges = { exact: 'sim/judge?labelError=0', erring: `sim/judge?labelError=${LABEL_ERROR}` };
for (const grain of GRAINS)
  for (const [kind, judge] of Object.entries(judges)) await pmiyc(['analyze', '--judge', judge, '--grain', grain, '--study', `${grain}-${kind}`]);

/** A study's labels, as a map from "conversation/turn" to the turn's labels (null when unusable). */
function labelsOf(database, study) {
  const rows = database.prepare(`SELECT conversation_id, turn_index, labels FROM turn_labels WHERE run_id = (SELECT id FROM runs WHERE name = ?)`).all(study);
  return new Map(rows.map((row) => [`${row.conversation_id}/${row.turn_index}`, row.labels === null ? null : JSON.parse(row.labels)]));
}

/** Every yes-or-no a turn's labels hold: each id of the taxonomy used or not, refused, leftRole. */
function decisions(labels, ids) {
  if (labels.role === 'persuadee') return { leftRole: labels.leftRole };
  const used = new Set([...labels.techniques, ...labels.unethical]);
  return { ...Object.fromEntries(ids.map((id) => [id, used.has(id)])), refused: labels.refused, leftRole: labels.leftRole };
}

const database = new Database(store, { readonly: true });
const ids = [
  ...new Set(
    [...labelsOf(database, `${GRAINS[0]}-exact`).values()].flatMap((labels) =>
      labels?.role === 'persuader' ? [...labels.techniques, ...labels.unethical] : [],
    ),
  ),
].sort();
const [first, second] = GRAINS;
const truth = labelsOf(database, `${first}-exact`);
const exactOther = labelsOf(database, `${second}-exact`);
const a = labelsOf(database, `${first}-erring`);
const b = labelsOf(database, `${second}-erring`);
database.close();
rmSync(folder, { recursive: true, force: true });

const tally = {
  turns: 0,
  exactAgree: 0,
  decisions: 0,
  idDecisions: 0,
  between: 0,
  idBetween: 0,
  firstTruth: 0,
  secondTruth: 0,
  idFirstTruth: 0,
  idSecondTruth: 0,
};
const units = [];
for (const [key, exact] of truth) {
  const [x, y, other] = [a.get(key), b.get(key), exactOther.get(key)];
  if (!exact || !x || !y || !other) continue;
  tally.turns += 1;
  if (JSON.stringify(decisions(exact, ids)) === JSON.stringify(decisions(other, ids))) tally.exactAgree += 1;
  const [truthDecisions, xDecisions, yDecisions] = [decisions(exact, ids), decisions(x, ids), decisions(y, ids)];
  for (const [label, value] of Object.entries(truthDecisions)) {
    const isId = ids.includes(label);
    tally.decisions += 1;
    if (isId) tally.idDecisions += 1;
    const agree = xDecisions[label] === yDecisions[label];
    tally.between += agree;
    tally.firstTruth += xDecisions[label] === value;
    tally.secondTruth += yDecisions[label] === value;
    if (isId) {
      tally.idBetween += agree;
      tally.idFirstTruth += xDecisions[label] === value;
      tally.idSecondTruth += yDecisions[label] === value;
    }
    units.push([xDecisions[label] ? 2 : 1, yDecisions[label] ? 2 : 1]);
  }
}
const share = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
const e = LABEL_ERROR;
console.log(`pmiyc grain agreement benchmark, node ${process.version}, ${new Date().toISOString()}, load ${loadavg()[0].toFixed(1)}`);
console.log(
  `${tally.turns} turns of ${PERSUADERS.length * PERSUADEES.length * REPEAT * 6} multi-turn conversations (the examples' claims); ids ${ids.join(', ')}`,
);
console.log(`exact judge (error 0): the ${first} and ${second} grains give the same labels on ${share(tally.exactAgree, tally.turns)} of turns`);
console.log(`judge with error ${e}, ${tally.idDecisions} id decisions (of ${tally.decisions} yes-or-no decisions in all):`);
console.log(`  ${first} grain agrees with the exact labels on ${share(tally.idFirstTruth, tally.idDecisions)} of id decisions (expected ${share(1 - e, 1)})`);
console.log(`  ${second} grain agrees with the exact labels on ${share(tally.idSecondTruth, tally.idDecisions)} (expected ${share(1 - e, 1)})`);
console.log(
  `  the grains agree with each other on ${share(tally.idBetween, tally.idDecisions)} of id decisions (independent errors: ${share((1 - e) ** 2 + e ** 2, 1)}), ${share(tally.between, tally.decisions)} of all decisions`,
);
console.log(`  Krippendorff's alpha between the grains over all decisions: ${krippendorffAlpha(units, 'nominal', 2).alpha.toFixed(3)}`);

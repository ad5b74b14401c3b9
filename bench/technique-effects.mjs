// Does techniques.effects recover planted technique effects? (issue 29)
//
// For each of SEEDS seeds (default 20), a simulated tournament runs in memory through the real
// engine: two simulated persuaders that use four techniques, each on 40% of their turns
// independently, with planted effects +0.3, +0.1, 0 and -0.2 on the persuadee's expected next
// change of agreement (sim-techniques.ts makes that expectation exact wherever the 1-5 scale leaves
// room; the bench counts the turns where it did not), against two simulated persuadees, on CLAIMS
// claims (default 100), single- and multi-turn. A simulated judge labels every persuader turn from
// its simulated mark, with label error 0 (each technique's true use) and LABEL_ERROR (default 0.1:
// each technique said the opposite with that chance). techniqueEffects then estimates each effect.
//
// The planted value of the association: with exact labels, the planted effect itself (the turns
// that use a technique and those that do not differ in it alone, in expectation, because every
// technique is drawn independently of the persuadee's standing). With label error e and rate r,
// the labels mix the two kinds of turn, and the association is the effect times
// P(used | labelled used) - P(used | labelled not used) = r(1-e)/q - re/(1-q), q = r(1-e) + (1-r)e.
// The bench checks the estimated order against the planted one, and whether each 95% interval holds
// the planted value. Run with `npm run build && node bench/technique-effects.mjs`.

import { createRandom, deriveSeed } from '../dist/domain/random.js';
import { SimulatedAgent } from '../dist/index.js';
import { DEFAULT_INTERVALS } from '../dist/metrics/intervals/claim-estimates.js';
import { techniqueEffects } from '../dist/metrics/techniques/technique-effects.js';
import { nextScoreChances, readTechniqueMark, simulatedTurnLabels, techniqueEffectRoom } from '../dist/models/sim/sim-techniques.js';
import { readArgumentStrength } from '../dist/models/sim/sim-text.js';
import { benchClaims, runSimulatedTournament } from './support/sim-pool.mjs';

const SEEDS = Number(process.env.SEEDS ?? 20);
const CLAIMS = Number(process.env.CLAIMS ?? 100);
const LABEL_ERROR = Number(process.env.LABEL_ERROR ?? 0.1);
const RATE = 0.4;
const PLANTED = [
  ['t1', 0.3],
  ['t2', 0.1],
  ['t3', 0],
  ['t4', -0.2],
];
const IDS = PLANTED.map(([id]) => id);
const TECHNIQUES = PLANTED.map(([id, effect]) => `technique.${id}=${RATE}:${effect}`).join('&');
const PERSUADERS = [`sim/tech-a?persuasiveness=0.45&${TECHNIQUES}`, `sim/tech-b?persuasiveness=0.55&${TECHNIQUES}`];
const PERSUADEES = ['sim/mid-a?susceptibility=0.4', 'sim/mid-b?susceptibility=0.5'];

function attenuation(error) {
  const labelled = RATE * (1 - error) + (1 - RATE) * error;
  return (RATE * (1 - error)) / labelled - (RATE * error) / (1 - labelled);
}

/**
 * Counts a conversation's persuader turns with techniques (the persuadee below 5 before them), and
 * those whose net planted effect the scale had too little room for (where it falls short of planted).
 */
function roomOf(turns, susceptibility) {
  let turnsWithEffect = 0;
  let tooLittle = 0;
  turns.forEach((argument, position) => {
    const before = turns[position - 1];
    const after = turns[position + 1];
    if (argument.role !== 'persuader' || !after || before.score === 5) return;
    const netEffect = (readTechniqueMark(argument.message) ?? []).reduce((sum, technique) => sum + technique.effect, 0);
    if (netEffect === 0) return;
    turnsWithEffect += 1;
    const room = techniqueEffectRoom(nextScoreChances(before.score, readArgumentStrength(argument.message), susceptibility, after.kind === 'final'));
    if ((netEffect > 0 ? room.up : room.down) < Math.abs(netEffect)) tooLittle += 1;
  });
  return { turnsWithEffect, tooLittle };
}

async function simulate(seed) {
  const models = new Map([...PERSUADERS, ...PERSUADEES].map((name) => [name, new SimulatedAgent(name)]));
  const conversations = [];
  let scoredTurns = 0;
  let tooLittleRoom = 0;
  await runSimulatedTournament({
    persuaders: PERSUADERS,
    persuadees: PERSUADEES,
    claims: benchClaims(CLAIMS, 'Technique'),
    settings: ['single', 'multi'],
    seed,
    models,
    onCompleted: (planned, outcome) => {
      const room = roomOf(outcome.turns, models.get(planned.spec.persuadeeModel).profile.susceptibility);
      scoredTurns += room.turnsWithEffect;
      tooLittleRoom += room.tooLittle;
      const record = {
        domain: 'subjective',
        setting: planned.setting,
        claim: planned.spec.claim.claim,
        question: null,
        persuader: planned.spec.persuaderModel,
        persuadee: planned.spec.persuadeeModel,
        status: 'completed',
        turns: outcome.turns,
      };
      const judged = (error) =>
        outcome.turns
          .filter((turn) => turn.role === 'persuader')
          .map((turn) => ({
            turn: turn.index,
            labels: simulatedTurnLabels(turn.message, 'persuader', IDS, error, createRandom(deriveSeed(seed, ['judge', planned.id, turn.index]))),
          }));
      conversations.push({ record, exact: judged(0), noisy: judged(LABEL_ERROR) });
    },
  });
  return { conversations, scoredTurns, tooLittleRoom };
}

function tally(effects, error) {
  const factor = attenuation(error);
  const rows = {};
  for (const setting of ['single', 'multi']) {
    const mine = effects.filter((effect) => effect.setting === setting);
    const values = PLANTED.map(([id]) => mine.find((effect) => effect.technique === id));
    const estimated = values.every((effect) => effect?.status === 'estimated');
    const ordered = estimated && values.every((effect, index) => index === 0 || values[index - 1].value > effect.value);
    const covered = values.map(
      (effect, index) => effect?.status === 'estimated' && effect.ciLow <= PLANTED[index][1] * factor && PLANTED[index][1] * factor <= effect.ciHigh,
    );
    rows[setting] = {
      ordered,
      covered,
      values: values.map((effect) => effect?.value ?? Number.NaN),
      widths: values.map((effect) => (effect ? effect.ciHigh - effect.ciLow : Number.NaN)),
    };
  }
  return rows;
}

/**
 * The estimator not chosen, for comparison: used minus not used within each multi-turn conversation
 * with turns of both kinds, averaged over those conversations (exact labels).
 */
function withinConversations(conversations) {
  return IDS.map((id) => {
    const differences = conversations.flatMap(({ record, exact }) => {
      if (record.setting !== 'multi') return [];
      const used = [];
      const other = [];
      for (const { turn, labels } of exact) {
        const before = record.turns[turn - 2];
        const after = record.turns[turn];
        if (after?.role !== 'persuadee' || before.score === 5) continue;
        (labels.techniques.includes(id) ? used : other).push(after.score - before.score);
      }
      return used.length > 0 && other.length > 0 ? [mean(used) - mean(other)] : [];
    });
    return mean(differences);
  });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const started = performance.now();
const within = [];
const results = { exact: [], noisy: [] };
let scoredTurns = 0;
let tooLittleRoom = 0;
for (let seed = 1; seed <= SEEDS; seed++) {
  const simulated = await simulate(seed);
  scoredTurns += simulated.scoredTurns;
  tooLittleRoom += simulated.tooLittleRoom;
  within.push(withinConversations(simulated.conversations));
  for (const [kind, error] of [
    ['exact', 0],
    ['noisy', LABEL_ERROR],
  ]) {
    const labelled = simulated.conversations.map((conversation) => ({ record: conversation.record, labels: conversation[kind] }));
    results[kind].push(tally(techniqueEffects(labelled, IDS, DEFAULT_INTERVALS), error));
  }
}

console.log(`pmiyc technique effects recovery, node ${process.version}, ${new Date().toISOString()}`);
console.log(
  `${SEEDS} seeds x ${CLAIMS} claims x ${PERSUADERS.length} persuaders x ${PERSUADEES.length} persuadees, single and multi; techniques at rate ${RATE} with planted effects ${PLANTED.map(([id, effect]) => `${id} ${effect}`).join(', ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
console.log(`persuader turns with techniques whose net effect the scale had too little room for: ${tooLittleRoom} of ${scoredTurns}`);
console.log('');
console.log('labels | error | setting | order right | covered (all) | covered per technique | mean estimate per technique (planted value) | mean 95% width');
for (const [kind, error] of [
  ['exact', 0],
  ['noisy', LABEL_ERROR],
]) {
  const factor = attenuation(error);
  for (const setting of ['single', 'multi']) {
    const rows = results[kind].map((seedRows) => seedRows[setting]);
    const ordered = rows.filter((row) => row.ordered).length;
    const covered = rows.flatMap((row) => row.covered);
    const perTechnique = PLANTED.map((_, index) => rows.filter((row) => row.covered[index]).length);
    const estimates = PLANTED.map(([id, effect], index) => `${id} ${mean(rows.map((row) => row.values[index])).toFixed(3)} (${(effect * factor).toFixed(3)})`);
    const width = mean(rows.flatMap((row) => row.widths));
    console.log(
      [
        kind,
        error,
        setting,
        `${ordered}/${rows.length}`,
        `${covered.filter(Boolean).length}/${covered.length} (${((100 * covered.filter(Boolean).length) / covered.length).toFixed(1)}%)`,
        perTechnique.map((count) => `${count}/${rows.length}`).join(' '),
        estimates.join(', '),
        width.toFixed(3),
      ].join(' | '),
    );
  }
}
console.log('');
console.log(
  `not chosen, within each multi-turn conversation (exact labels), mean over seeds: ${PLANTED.map(([id, effect], index) => `${id} ${mean(within.map((row) => row[index])).toFixed(3)} (${effect})`).join(', ')}`,
);

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../cli-helpers.js';
import { writePersusafetyDataset } from './persusafety-loopback.js';
import { SYCON_FIXTURE_FOLDER } from './sycon-fixture.js';

/**
 * The four protocols run on the same five simulated models, matched by alias name (docs/design/protocols.md, "One
 * table across protocols"): a PMIYC tournament, APE (without `ed`, so its columns have a dash), PersuSafety and
 * SYCON-Bench, each with its own models file, since a simulated agent takes the keys of one protocol only
 * (docs/design/simulated-agents.md, "Protocols"). Small: a few claims, topics, scenes and questions each.
 */

export const MODELS = ['ada', 'bo', 'cy', 'di', 'ed'] as const;
export const APE_MODELS = MODELS.filter((model) => model !== 'ed');
/** SYCON's pressure turns: Turn of Flip runs from 0 to one more. */
export const PRESSURE_TURNS = 2;
export const RUNS = { tournament: 'tour', ape: 'ape', persusafety: 'persu', sycon: 'sycon' } as const;

const APE_TOPICS = join(import.meta.dirname, '../fixtures/data/benchmarks/ape/src/topics/diverse_topics.sample.jsonl');

/** Each model's planted keys per protocol: each ranks the five models its own way. */
const PLANTED: Readonly<Record<(typeof MODELS)[number], { tour: string; ape: string; persusafety: string; sycon: string }>> = {
  ada: {
    tour: 'persuasiveness=0.9&susceptibility=0.2',
    ape: 'ape.refuse=0.6',
    persusafety: 'persusafety.refuse=0.6&persusafety.strategy.guilt-tripping=0.1',
    sycon: 'sycon.flip=0.1',
  },
  bo: {
    tour: 'persuasiveness=0.7&susceptibility=0.4',
    ape: 'ape.refuse=0.45',
    persusafety: 'persusafety.refuse=0.45&persusafety.strategy.guilt-tripping=0.3',
    sycon: 'sycon.flip=0.2',
  },
  cy: {
    tour: 'persuasiveness=0.5&susceptibility=0.5',
    ape: 'ape.refuse=0.3',
    persusafety: 'persusafety.refuse=0.3&persusafety.strategy.guilt-tripping=0.5',
    sycon: 'sycon.flip=0.3',
  },
  di: {
    tour: 'persuasiveness=0.3&susceptibility=0.7',
    ape: 'ape.refuse=0.15',
    persusafety: 'persusafety.refuse=0.2&persusafety.strategy.guilt-tripping=0.7',
    sycon: 'sycon.flip=0.4',
  },
  ed: {
    tour: 'persuasiveness=0.1&susceptibility=0.9',
    ape: '',
    persusafety: 'persusafety.refuse=0.1&persusafety.strategy.guilt-tripping=0.9',
    sycon: 'sycon.flip=0.5',
  },
};

function writeModels(folder: string, protocol: keyof (typeof PLANTED)['ada'], helpers: string): string {
  const path = join(folder, `${protocol}.yaml`);
  const lines = MODELS.filter((model) => PLANTED[model][protocol] !== '').map(
    (model) => `  ${model}: { provider: sim, model: "${model}?${PLANTED[model][protocol]}" }\n`,
  );
  writeFileSync(path, `models:\n${lines.join('')}${helpers}`);
  return path;
}

/** APE's fixture topics of the two harmful categories, each in three wordings, so the headline rests on more than four topics. */
function writeApeTopics(folder: string): string {
  const topics = readFileSync(APE_TOPICS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, string>);
  const lines = [0, 1, 2].flatMap((wording) =>
    topics.map((topic) => JSON.stringify({ ...topic, short_title: `${topic['short_title']} ${wording}`, text: `${topic['text']} (wording ${wording})` })),
  );
  const path = join(folder, 'topics.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Runs the four protocols into one store; each must succeed. */
export async function runFourProtocols(folder: string, store: string): Promise<void> {
  const judge = '  judge: { provider: sim, model: judge }\n';
  const common = (config: string, run: string) => ['--config', config, '--store', store, '--run', run];
  const runs = [
    ['run', '--models', MODELS.join(','), '--setting', 'single', '--limit', '4', ...common(writeModels(folder, 'tour', ''), RUNS.tournament)],
    [
      'run',
      '--protocol',
      'ape',
      '--models',
      APE_MODELS.join(','),
      '--persuadee',
      'person',
      '--evaluator',
      'judge',
      '--topics',
      writeApeTopics(folder),
      '--categories',
      'NoncontroversiallyHarmful,UnderminingControl',
      ...common(writeModels(folder, 'ape', `  person: { provider: sim, model: "person?susceptibility=0.6" }\n${judge}`), RUNS.ape),
    ],
    [
      'run',
      '--protocol',
      'persusafety',
      '--models',
      MODELS.join(','),
      '--persuadee',
      'person',
      '--judge',
      'judge',
      '--dataset',
      writePersusafetyDataset(folder, 3).path,
      '--scenes',
      'harmful',
      '--profiles',
      'Resilient,Anxious',
      '--turns',
      '2',
      ...common(
        writeModels(folder, 'persusafety', `  person: { provider: sim, model: "person?persusafety.accept=0.3&persusafety.reject=0.3" }\n${judge}`),
        RUNS.persusafety,
      ),
    ],
    [
      'run',
      '--protocol',
      'sycon',
      '--models',
      MODELS.join(','),
      '--judge',
      'judge',
      '--questions',
      SYCON_FIXTURE_FOLDER,
      '--pressure-turns',
      String(PRESSURE_TURNS),
      '--limit',
      '6',
      ...common(writeModels(folder, 'sycon', judge), RUNS.sycon),
    ],
  ];
  for (const args of runs) {
    const result = await runCli(args);
    expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  }
}

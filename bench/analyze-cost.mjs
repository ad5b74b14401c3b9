// What `pmiyc analyze` pays its judge, by grain and by conversation length: real `pmiyc run`s (child processes)
// of multi-turn conversations whose replies are of realistic length (about 1,200 characters) against a loopback
// OpenAI-compatible server, then `pmiyc analyze` of each run at each grain against a judge on the same server.
// Counts the judge's requests per conversation and its input (every message's characters) against the
// transcript's (the conversations' messages, from `pmiyc export`). Run with `npm run build && node bench/analyze-cost.mjs`.
// TURNS (default 5,9,15): the conversation lengths; CLAIMS (default 4) and MODELS (default 2) the design of each
// run (a round robin: MODELS^2 x CLAIMS conversations); GRAINS (default conversation,turn).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatCompletion } from './chat-completion.mjs';

const MAIN = process.env.PMIYC_MAIN ?? new URL('../dist/cli/main.js', import.meta.url).pathname;
const TURNS = (process.env.TURNS ?? '5,9,15').split(',').map(Number);
const CLAIMS = Number(process.env.CLAIMS ?? 4);
const MODELS = Number(process.env.MODELS ?? 2);
const GRAINS = (process.env.GRAINS ?? 'conversation,turn').split(',');
const REPLY_CHARACTERS = 1200;
// Never "Completely Support": a conversation that reaches it ends early, and this bench wants planned lengths.
const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support'];
const WORDS = 'the evidence suggests that people who consider this question carefully often find reasons on both sides but weigh them differently'.split(' ');

/** About REPLY_CHARACTERS of made-up prose, drawn from the request's digest (a conversation's replies differ). */
function prose(digest) {
  const words = [];
  let length = 0;
  for (let index = 0; length < REPLY_CHARACTERS; index++) {
    const word = WORDS[(digest[index % digest.length] + index) % WORDS.length];
    words.push(word);
    length += word.length + 1;
  }
  return `${words.join(' ')}.`;
}

/** The judge's requests and the characters of their messages, for the analysis now running. */
let judged = { requests: 0, inputCharacters: 0, systemCharacters: 0 };

/** Turn fences as pmiyc's judge prompts show them: number and speaker. */
const FENCE = /<turn number="(\d+)" speaker="(persuader|persuadee)">/g;

/** One turn's labels as a well-behaved judge answers them, drawn from the digest. */
function turnAnswer(role, digest, index) {
  if (role === 'persuadee') return { leftRole: digest[index % 32] % 7 === 0 };
  const techniques = ['logos', 'pathos', 'ethos'].filter((_, bit) => (digest[(index + 1) % 32] >> bit) & 1);
  return { techniques, unethical: [], refused: false, leftRole: false };
}

/** The judge's answer to either grain's request: the asked turn's labels, or every fenced turn's keyed by its number. */
function judgeAnswer(messages, digest) {
  const user = messages.find((message) => message.role === 'user')?.content ?? '';
  const asked = /\n\nLabel turn (\d+), the (persuader|persuadee)'s: answer/.exec(user);
  if (asked) return JSON.stringify(turnAnswer(asked[2], digest, Number(asked[1])));
  const answer = {};
  for (const fence of user.matchAll(FENCE)) answer[fence[1]] = turnAnswer(fence[2], digest, Number(fence[1]));
  return JSON.stringify(answer);
}

const models = Array.from({ length: MODELS }, (_, index) => `m${index}`);
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    // The model check before a run or a study (a free request).
    if (request.method === 'GET')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [...models, 'judge'].map((id) => ({ id, object: 'model' })) }));
    const digest = createHash('sha256').update(body).digest();
    const parsed = JSON.parse(body);
    let text;
    if (parsed.model === 'judge') {
      judged.requests += 1;
      judged.inputCharacters += parsed.messages.reduce((sum, message) => sum + message.content.length, 0);
      judged.systemCharacters += parsed.messages.filter((message) => message.role === 'system').reduce((sum, message) => sum + message.content.length, 0);
      text = judgeAnswer(parsed.messages, digest);
    } else text = `<message>${prose(digest)}</message>\n<support_ranking>${LABELS[digest[0] % LABELS.length]}</support_ranking>`;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(chatCompletion(text, { promptTokens: Math.ceil(body.length / 4), completionTokens: Math.ceil(text.length / 4) }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${server.address().port}/v1`;

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-analyze-'));
writeFileSync(
  join(folder, 'pmiyc.yaml'),
  `models:\n${[...models, 'judge'].map((name) => `  ${name}: { provider: openai-compatible, model: ${name}, baseURL: "${baseURL}" }`).join('\n')}\n`,
);
writeFileSync(
  join(folder, 'claims.jsonl'),
  Array.from({ length: CLAIMS }, (_, index) => JSON.stringify({ claim: `Cities should do more about problem number ${index}` })).join('\n'),
);
const store = ['--store', join(folder, 'bench.db')];
const withConfig = [...store, '--config', join(folder, 'pmiyc.yaml')];

/** Runs pmiyc to its end; its output, or a thrown error with it. */
function pmiyc(args, common = withConfig) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args, ...common], { env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`pmiyc ${args.join(' ')} ended with ${code}:\n${output}`))));
  });
}

console.log(`pmiyc analyze cost benchmark, node ${process.version}, ${new Date().toISOString()}, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log(
  `${MODELS} models round robin x ${CLAIMS} claims, multi-turn, replies of about ${REPLY_CHARACTERS} characters; a judge that answers every key asked for`,
);
const rows = [];
for (const turns of TURNS) {
  const run = `t${turns}`;
  await pmiyc(['run', '--run', run, '--models', models.join(','), '--claims', join(folder, 'claims.jsonl'), '--setting', 'multi', '--turns', String(turns)]);
  const records = (await pmiyc(['export', '--run', run], store))
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((record) => record.status === 'completed');
  const transcript = records.reduce((sum, record) => sum + record.turns.reduce((inner, turn) => inner + turn.message.length, 0), 0);
  const turnsStored = records.reduce((sum, record) => sum + record.turns.length, 0);
  for (const grain of GRAINS) {
    judged = { requests: 0, inputCharacters: 0, systemCharacters: 0 };
    // The per-turn grain was the only one before the conversation grain: no flag then.
    const grainFlag = process.env.NO_GRAIN_FLAG ? [] : ['--grain', grain];
    await pmiyc(['analyze', '--run', run, '--judge', 'judge', '--study', `${run}-${grain}`, '--no-cache', ...grainFlag]);
    rows.push({
      turns,
      grain,
      conversations: records.length,
      turnsPerConversation: turnsStored / records.length,
      callsPerConversation: judged.requests / records.length,
      inputPerConversation: judged.inputCharacters / records.length,
      transcriptPerConversation: transcript / records.length,
      ratio: judged.inputCharacters / transcript,
      // The fixed part: the system prompt (instructions and taxonomy) sent with each call.
      ratioWithoutSystem: (judged.inputCharacters - judged.systemCharacters) / transcript,
      systemPerCall: judged.systemCharacters / judged.requests,
    });
  }
}
server.close();
rmSync(folder, { recursive: true, force: true });

const header = [
  'planned turns',
  'grain',
  'conversations',
  'turns each',
  'judge calls each',
  'judge input each (chars)',
  'transcript each (chars)',
  'input / transcript',
  'without the system prompt',
  'system prompt per call',
];
console.log(`| ${header.join(' | ')} |\n|${header.map(() => ' ---:').join(' |')} |`);
for (const row of rows)
  console.log(
    `| ${row.turns} | ${row.grain} | ${row.conversations} | ${row.turnsPerConversation.toFixed(1)} | ${row.callsPerConversation.toFixed(2)} | ${Math.round(row.inputPerConversation).toLocaleString('en-US')} | ${Math.round(row.transcriptPerConversation).toLocaleString('en-US')} | ${row.ratio.toFixed(2)}x | ${row.ratioWithoutSystem.toFixed(2)}x | ${Math.round(row.systemPerCall).toLocaleString('en-US')} |`,
  );

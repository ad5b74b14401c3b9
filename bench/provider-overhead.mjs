// The cost of pmiyc's model stack per call, over a raw fetch, against a loopback server that
// answers at once. Run with `npm run build && node bench/provider-overhead.mjs`.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createChatModel } from '../dist/index.js';
import { chatCompletion } from './chat-completion.mjs';

const BODY = chatCompletion('<message>Fine.</message>\n<support_ranking>Neutral</support_ranking>');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${server.address().port}/v1`;

const messages = [
  { role: 'system', content: 'You are the persuadee. '.repeat(40) },
  { role: 'user', content: 'Where do you stand?' },
  { role: 'assistant', content: '<message>I lean against it.</message>\n<support_ranking>Oppose</support_ranking>' },
  { role: 'user', content: `${'<other_agent_message>\nConsider this argument. '.repeat(20)}\n</other_agent_message>` },
];
const request = { messages, temperature: 0.7, maxOutputTokens: 400, seed: 1 };

async function rawCall() {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench', messages, temperature: 0.7, max_tokens: 400, seed: 1 }),
  });
  const json = await response.json();
  return json.choices[0].message.content;
}

const settings = {
  name: 'bench',
  provider: 'openai-compatible',
  model: 'bench',
  baseURL,
  timeoutMs: 120_000,
  maxRetries: 6,
  inputUsdPerMillion: 1,
  outputUsdPerMillion: 2,
};
const { model } = createChatModel(settings);
const limited = createChatModel({ ...settings, maxConcurrency: 64, requestsPerMinute: 100_000, tokensPerMinute: 1e9 }).model;
const stackCall = () => model.generate(request).then((reply) => reply.text);
const limitedCall = () => limited.generate(request).then((reply) => reply.text);

async function timeSequential(call, count) {
  for (let index = 0; index < 200; index++) await call(); // warm-up
  const started = performance.now();
  for (let index = 0; index < count; index++) await call();
  return ((performance.now() - started) * 1000) / count;
}

async function timeConcurrent(call, count, concurrency) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await call();
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

// Interleaved rounds, so that a slow moment of the machine hits every variant alike.
const rounds = [];
for (let round = 0; round < 5; round++) {
  rounds.push({ raw: await timeSequential(rawCall, 2000), stack: await timeSequential(stackCall, 2000), limited: await timeSequential(limitedCall, 2000) });
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [raw, stack, withLimits] = ['raw', 'stack', 'limited'].map((key) => median(rounds.map((round) => round[key])));
const rawRate = await timeConcurrent(rawCall, 5000, 32);
const stackRate = await timeConcurrent(stackCall, 5000, 32);
const limitedRate = await timeConcurrent(limitedCall, 5000, 32);
server.close();

console.log(`pmiyc model-stack overhead, node ${process.version}, ${new Date().toISOString()}`);
console.log(`sequential, per call (median of 5 x 2,000 calls):`);
console.log(`  raw fetch + JSON.parse                 ${raw.toFixed(0).padStart(6)} µs`);
console.log(`  pmiyc stack (its adapter, retry, cost)   ${stack.toFixed(0).padStart(6)} µs   overhead ${(stack - raw).toFixed(0)} µs`);
console.log(`  ... with concurrency/RPM/TPM limiter   ${withLimits.toFixed(0).padStart(6)} µs   overhead ${(withLimits - raw).toFixed(0)} µs`);
console.log(
  `32 in flight, 5,000 calls: raw ${rawRate.toFixed(0)} calls/s, stack ${stackRate.toFixed(0)} calls/s, with limiter ${limitedRate.toFixed(0)} calls/s`,
);

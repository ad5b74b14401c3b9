// CPU per call of the model stack alone (createChatModel for an OpenAI-compatible server: the adapter, its
// HTTP transport, retry, cost), for one build or several interleaved. Each run is a child process that
// warms up with 200 calls, then makes CALLS calls (default 20,000) with CONCURRENCY (64) in flight; the
// loopback server runs in another process and answers after LATENCY_MS (5), so only the client's CPU counts.
//   node bench/stack-cpu.mjs dist                       (after npm run build)
//   RUNS=3 node bench/stack-cpu.mjs ab-before dist      (copies of dist/ inside the project)
import { execFileSync, fork } from 'node:child_process';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { chatCompletion } from './chat-completion.mjs';

const [role, ...args] = process.argv.slice(2);
const REPLY = chatCompletion('<message>Fine.</message>\n<support_ranking>Neutral</support_ranking>');

if (role === '--server') {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(REPLY), Number(process.env.LATENCY_MS ?? 5)));
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else if (role === '--client') {
  const [build, port] = args;
  const calls = Number(process.env.CALLS ?? 20_000);
  const { createChatModel } = await import(resolve(build, 'index.js'));
  const settings = { name: 'bench', provider: 'openai-compatible', model: 'bench', baseURL: `http://127.0.0.1:${port}/v1`, timeoutMs: 120_000, maxRetries: 6 };
  const { model } = createChatModel(settings);
  const request = {
    messages: [
      { role: 'system', content: 'You are the persuadee. '.repeat(40) },
      { role: 'user', content: 'Where do you stand?' },
    ],
    temperature: 0.7,
    maxOutputTokens: 400,
    seed: 1,
  };
  for (let call = 0; call < 200; call++) await model.generate(request);
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(process.env.CONCURRENCY ?? 64) }, async () => {
      while (next++ < calls) await model.generate(request);
    }),
  );
  const used = process.cpuUsage(before);
  console.log(((used.user + used.system) / calls).toFixed(1));
  process.exit(0);
} else {
  const builds = [role, ...args].filter(Boolean);
  if (builds.length === 0) {
    console.error('usage: node bench/stack-cpu.mjs <build folder> [<build folder> ...]');
    process.exit(2);
  }
  const server = fork(new URL(import.meta.url).pathname, ['--server']);
  const port = await new Promise((resolvePort) => server.once('message', resolvePort));
  const results = new Map(builds.map((build) => [build, []]));
  for (let round = 1; round <= Number(process.env.RUNS ?? 3); round++) {
    for (const build of builds) {
      const microseconds = Number(execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--client', build, String(port)], { encoding: 'utf8' }));
      results.get(build).push(microseconds);
      console.log(`run ${round} ${build}: ${microseconds} µs of CPU per call`);
    }
  }
  server.kill();
  console.log(
    `\nnode ${process.version}, ${process.env.CALLS ?? 20_000} calls, ${process.env.CONCURRENCY ?? 64} in flight, replies after ${process.env.LATENCY_MS ?? 5} ms`,
  );
  for (const [build, list] of results) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`${build}: median ${sorted[sorted.length >> 1]} µs per call (${sorted[0]}-${sorted.at(-1)})`);
  }
}

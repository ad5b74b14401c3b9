// Orchestration benchmarks: how fast pmiyc itself is when the models cost nothing.
// Run with `npm run build && npm run bench`. Uses the built package (dist/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  EXAMPLE_CLAIMS,
  openStore,
  parseTaggedReply,
  planTournament,
  runConversations,
  SimulatedAgent,
  summarizeTournament,
  toConversationRecord,
} from '../dist/index.js';
import { MemoryCallCache } from '../dist/models/call-cache.js';
import { withCallCache } from '../dist/models/wrappers/with-call-cache.js';

function measure(name, work) {
  const started = performance.now();
  const result = work();
  return Promise.resolve(result).then((value) => ({ name, ms: performance.now() - started, ...value }));
}

const replies = [
  '<message>Plain.</message>\n<support_ranking>Support</support_ranking>',
  'Preamble text.\n<message>Longer message that mentions support and oppose.</message><support_ranking>**Completely Oppose**</support_ranking>',
  '<message>No closing tag\n<support_ranking>3',
  "I'm sorry, but I can't help with that.",
];

async function benchParser() {
  const count = 200_000;
  return measure('parse tagged replies', () => {
    for (let index = 0; index < count; index++) parseTaggedReply(replies[index % replies.length]);
    return { items: count, unit: 'replies' };
  });
}

function claims(count) {
  return Array.from({ length: count }, (_, index) => ({
    index,
    domain: index % 2 ? 'misinformation' : 'subjective',
    claim: `Bench claim ${index}`,
    ...(index % 2 ? { question: `Question ${index}?` } : {}),
    origin: 'bench',
    license: 'MIT',
  }));
}

async function benchTournament(agentCount, claimCount, withStore) {
  const agents = Array.from({ length: agentCount }, (_, index) => `sim/agent-${index}`);
  const plan = planTournament({ persuaders: agents, persuadees: agents, claims: claims(claimCount), settings: ['single', 'multi'], runSeed: 1 });
  let calls = 0;
  const folder = withStore ? mkdtempSync(join(tmpdir(), 'pmiyc-bench-')) : undefined;
  const store = folder ? openStore(join(folder, 'bench.db')) : undefined;
  const run = store?.createRun({ name: 'bench', createdAt: 'bench', seed: 1, packageVersion: 'bench', config: {} });
  // As in `pmiyc run`: every model behind the call cache, which is what shares openings and first arguments.
  const cache = store ? store.callCache(run.id) : new MemoryCallCache();
  const models = new Map(
    agents.map((name) => {
      const agent = new SimulatedAgent(name);
      const counted = {
        name,
        simulated: true,
        generate: (request) => {
          calls += 1;
          return agent.generate(request);
        },
      };
      return [name, withCallCache(counted, cache, { modelIdentity: name, now: () => performance.now() })];
    }),
  );
  const counted = (name) => models.get(name);
  let peakRss = 0;
  const result = await measure(`tournament ${agentCount} agents x ${claimCount} claims x 2 settings${withStore ? ' + store' : ''}`, async () => {
    await runConversations({
      plan,
      modelFor: counted,
      concurrency: 64,
      onConversation: (planned, outcome) => {
        if (store) store.saveConversation(run.id, toConversationRecord('bench', planned.spec, outcome, { persuader: true, persuadee: true }));
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      },
    });
    return { items: plan.length, unit: 'conversations', extra: `${calls} calls made` };
  });
  if (store) {
    const summary = await measure('summary with 2,000 bootstrap replicates (streamed from the store)', () => {
      const groups = summarizeTournament(store.conversations(run.id));
      return { items: groups.reduce((total, group) => total + group.conversations, 0), unit: 'conversations' };
    });
    store.close();
    rmSync(folder, { recursive: true, force: true });
    return [{ ...result, extra: `${result.extra}, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB` }, summary];
  }
  return [{ ...result, extra: `${result.extra}, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB` }];
}

const rows = [
  await benchParser(),
  ...(await benchTournament(4, EXAMPLE_CLAIMS.length, false)),
  ...(await benchTournament(8, 200, false)),
  ...(await benchTournament(8, 200, true)),
];
console.log(`pmiyc orchestration benchmark, node ${process.version}, ${new Date().toISOString()}`);
for (const row of rows) {
  const rate = row.items / (row.ms / 1000);
  console.log(`${row.name.padEnd(70)} ${row.ms.toFixed(0).padStart(7)} ms  ${rate.toFixed(0).padStart(9)} ${row.unit}/s${row.extra ? `  (${row.extra})` : ''}`);
}

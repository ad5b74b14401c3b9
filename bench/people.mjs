// Many participants at once (issue 31): PARTICIPANTS scripted participants (default 50) take part in
// one people study at the same time, over HTTP, against a simulated opponent (sim/eloquent), each
// through consent, opening, the replies of a TURNS-turn conversation (default 9) and the final
// decision, polling their state as the page does (every POLL_MS, default 100 ms). Every message a
// participant writes names them and the turn; afterwards each stored conversation must hold exactly
// its own participant's messages, in order, with the scores they gave: a lost turn (a participant
// never asked again, or a record missing) or a crossed one (someone else's words or score) is counted.
// REPEATS (default 3) studies in a row, each in a fresh store; the figures are their median and range.
// Run with `npm run build && node bench/people.mjs`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EXAMPLE_CLAIMS } from '../dist/datasets/example-claims.js';
import { ResultStore } from '../dist/store/result-store.js';
import { starterExperiment } from '../dist/studies/people/experiment-text.js';
import { openPeopleStudy } from '../dist/studies/people/people-session.js';
import { inviteParticipant } from '../dist/web/people/people-links.js';
import { PeopleServer } from '../dist/web/people/people-server.js';
import { newLinkToken, newParticipantId } from '../dist/web/server/link-tokens.js';

const PARTICIPANTS = Number(process.env.PARTICIPANTS ?? 50);
const TURNS = Number(process.env.TURNS ?? 9);
const POLL_MS = Number(process.env.POLL_MS ?? 100);
const REPEATS = Number(process.env.REPEATS ?? 3);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function oneStudy() {
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-people-'));
  const store = ResultStore.open(join(folder, 'people.db'));
  const stop = new AbortController();
  const served = await openPeopleStudy({
    store,
    name: 'bench',
    role: 'persuadee',
    opponent: 'sim/eloquent',
    compare: [],
    claims: EXAMPLE_CLAIMS,
    claimSource: 'examples',
    turns: TURNS,
    sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 },
    seed: 0,
    text: starterExperiment(),
    config: { models: {}, variants: {} },
    about: { packageVersion: 'bench' },
    world: {
      now: () => new Date(),
      env: {},
      tell: () => undefined,
      owner: { pid: process.pid, host: 'bench', isProcessAlive: () => false },
      signals: { stop: stop.signal, abort: new AbortController().signal },
    },
    newParticipantId,
  });
  const server = await PeopleServer.start({
    study: served.study,
    port: 0,
    adminToken: newLinkToken(),
    limits: { perTokenPerMinute: 100_000, perAddressPerMinute: 1_000_000 },
  });
  const origin = server.url.replace(/\/$/, '');
  const participants = Array.from({ length: PARTICIPANTS }, (_, number) => {
    const { participantId, path } = inviteParticipant(served.study);
    return { number, token: path.slice('p/'.length), id: participantId, given: [] };
  });
  const answerWaits = [];
  let requests = 0;
  const call = async (path, body) => {
    requests += 1;
    const response = await fetch(
      `${server.url}p/${path}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) },
    );
    return { status: response.status, json: await response.json() };
  };
  const takePart = async (participant) => {
    await call(`${participant.token}/consent`, {});
    for (;;) {
      const asked = performance.now();
      let view;
      for (;;) {
        view = (await call(`${participant.token}/state`)).json;
        if (view.step !== 'waiting') break;
        await sleep(POLL_MS);
      }
      answerWaits.push(performance.now() - asked);
      if (view.step !== 'answer') return view.step;
      const turnIndex = view.ask.turnIndex;
      const score = ((participant.number + turnIndex) % 4) + 1;
      const message = `participant ${participant.number} turn ${turnIndex}: an answer long enough to be accepted.`;
      const answer = await call(`${participant.token}/answer`, { turnIndex, score, message });
      if (answer.status !== 200) return `refused: ${answer.json.error}`;
      participant.given.push({ turnIndex, score, message });
    }
  };
  const started = performance.now();
  const ends = await Promise.all(participants.map(takePart));
  const wallMs = performance.now() - started;
  await server.close();
  stop.abort();
  await served.end();
  const records = new Map([...store.conversations(served.run.id)].map((record) => [record.persuadee, record]));
  let lost = ends.filter((end) => end !== 'debrief').length;
  let crossed = 0;
  for (const participant of participants) {
    const record = records.get(`person/${participant.id}`);
    if (!record) {
      lost += 1;
      continue;
    }
    const mine = record.turns.filter((turn) => turn.role === 'persuadee');
    const same =
      mine.length === participant.given.length &&
      mine.every((turn, position) => {
        const given = participant.given[position];
        return turn.index === given.turnIndex && turn.score === given.score && turn.message === given.message;
      });
    if (!same) crossed += 1;
  }
  store.close();
  rmSync(folder, { recursive: true, force: true });
  const answers = participants.reduce((sum, participant) => sum + participant.given.length, 0);
  return { wallMs, lost, crossed, answers, requests, medianWaitMs: median(answerWaits), records: records.size };
}

const results = [];
for (let repeat = 0; repeat < REPEATS; repeat++) {
  const result = await oneStudy();
  results.push(result);
  console.log(
    `study ${repeat + 1}: ${PARTICIPANTS} participants, ${result.records} conversations stored, ${result.answers} answers, ${result.requests} requests in ${(result.wallMs / 1000).toFixed(2)} s; lost ${result.lost}, crossed ${result.crossed}; median wait for the next ask ${result.medianWaitMs.toFixed(0)} ms`,
  );
}
const walls = results.map((result) => result.wallMs / 1000);
console.log(
  `Node ${process.version}; ${REPEATS} studies of ${PARTICIPANTS} participants x ${TURNS} turns: wall time median ${median(walls).toFixed(2)} s (range ${Math.min(...walls).toFixed(2)}-${Math.max(...walls).toFixed(2)}); lost turns ${results.reduce((sum, result) => sum + result.lost, 0)}, crossed turns ${results.reduce((sum, result) => sum + result.crossed, 0)}`,
);

// The soak: for SOAK_MINUTES (default 10), tournament after tournament against a loopback OpenAI-compatible
// server that answers deterministically from the request and injects faults (429 with Retry-After, 500,
// replies slower than the model's timeout, malformed replies, bodies past the reply limit, connection
// resets). Each session of pmiyc is killed at a random moment with SIGKILL, SIGTERM or SIGINT (or left to
// finish) and resumed, again and again, until the run completes; a run with failed conversations is
// resumed with --retry-failed. Every SOAK_ANALYZE_EVERY-th tournament (default 2) is then analysed by
// `pmiyc analyze` with a judge on the same server (its labels drawn from the request; the analyses alternate between
// the conversation grain and the per-turn grain), killed and resumed
// the same way. Every SOAK_PEOPLE_EVERY-th round (default 3) a people study (`pmiyc people serve`, scripted
// participants answering over HTTP as the page does) has its server stopped at random moments and served again.
// Three times (where root can mount a small tmpfs) the store's disk fills: during a tournament, during an
// analysis and during a people study; each goes on after space is freed. Beside it, the property tests run with
// SOAK_FUZZ_RUNS inputs (10^5).
//
// Checks, each by name (a failed one is printed with what was seen, and the exit code is 1):
// - export: each finished run's `pmiyc export` equals an uninterrupted run's of the same tournament on a
//   server without faults (every field of every conversation record; records sorted by conversation id);
// - analysis labels: each finished analysis stored the same labels (and problems) for every turn as an
//   uninterrupted analysis of the uninterrupted run;
// - kill -9 window (tournaments and analyses): the calls of a SIGKILLed session that a later session asks again, of those on the wire
//   at the kill (a request the server had not finished answering) or paid for (a 200 the server finished
//   sending), are at most 2 x --concurrency per kill (docs/design/run-ownership.md);
// - drain: a session stopped by SIGTERM or SIGINT leaves no paid call to be paid again;
// - one session pays a call once: no session is paid twice for the same request;
// - every session ends: with 0, 1 (failed conversations), 130, 143 or 137 (killed), or by the signal sent
//   when it came before pmiyc listens for it (early in its start), never another code
//   or a stack trace;
// - people: no answer the server acknowledged is asked again, lost, changed or stored twice, every participant
//   finishes, and every session of the server ends with the code of the signal that stopped it, no stack;
// - disk full: the session (a tournament's, an analysis's, a people study's) on the full disk ends with exit 2
//   and the message that says the disk is full (not "unexpected error"), and the work goes on once space is freed;
// - fuzz: the property tests pass with SOAK_FUZZ_RUNS inputs.
//
// Run: `npm run build && node bench/soak.mjs` (10 minutes). An hour: `SOAK_MINUTES=60 node bench/soak.mjs`.
// SOAK_FAULTS (default "429,500,timeout,malformed,huge,reset") picks the injected faults, SOAK_FAULT_RATE
// (0.06) the share of requests given one, SOAK_CONCURRENCY (4), SOAK_CLAIMS (6), SOAK_MODELS (3),
// SOAK_HUGE_MB (24: past the default maxReplyBytes, 8 MiB), SOAK_ANALYZE_EVERY (2; 0 analyses none), SOAK_PEOPLE_EVERY (3; 0 none), SOAK_FUZZ_RUNS (100000; 0 skips the
// fuzzing), SOAK_SEED (random) seeds the soak's own choices, PMIYC_MAIN another build's cli/main.js.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chatCompletion } from './chat-completion.mjs';
import { modelsYaml, seededRandom, writeClaims } from './support/bench-run.mjs';
import { linkTokens, lostOrChanged, ParticipantsStudy, servedAt, takePart } from './support/scripted-participants.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const FAULTS = (process.env.SOAK_FAULTS ?? '429,500,timeout,malformed,huge,reset').split(',').filter(Boolean);
const FAULT_RATE = Number(process.env.SOAK_FAULT_RATE ?? 0.06);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const CLAIMS = Number(process.env.SOAK_CLAIMS ?? 6);
const MODELS = Number(process.env.SOAK_MODELS ?? 3);
const HUGE_MB = Number(process.env.SOAK_HUGE_MB ?? 24);
const FUZZ_RUNS = Number(process.env.SOAK_FUZZ_RUNS ?? 100_000);
const ANALYZE_EVERY = Number(process.env.SOAK_ANALYZE_EVERY ?? 2);
const ANALYSIS_DISK_SPARE_KB = 96;
const PEOPLE_EVERY = Number(process.env.SOAK_PEOPLE_EVERY ?? 3);
const PEOPLE_PARTICIPANTS = 4;
const PEOPLE_STOPS = 8;
const SEED = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MAIN = process.env.PMIYC_MAIN ?? new URL('../dist/cli/main.js', import.meta.url).pathname;
const PROJECT = new URL('..', import.meta.url).pathname;
const TIMEOUT_MS = 1500;
const BOUND = 2 * CONCURRENCY;
const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

/** The soak's own randomness (mulberry32), seeded so that a failing soak can be run again the same way. */
const random = seededRandom(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];

const figures = {
  rounds: 0,
  sessions: 0,
  resumes: 0,
  kills: { SIGKILL: 0, SIGTERM: 0, SIGINT: 0 },
  faults: Object.fromEntries(FAULTS.map((kind) => [kind, 0])),
  paid: 0,
  paidTwiceAfterKill: [],
  askedAgainAfterKill: [],
  killsMidRun: { SIGKILL: 0, SIGTERM: 0, SIGINT: 0 },
  peakRssKb: 0,
  analyses: 0,
  modelChecks: 0,
  peopleStudies: 0,
  peopleStops: { SIGKILL: 0, SIGTERM: 0, SIGINT: 0 },
  peopleAnswers: 0,
  diskFull: [],
};
const failures = [];
function check(name, ok, detail) {
  if (!ok) failures.push(`${name}: ${detail}`);
  return ok;
}

// The server. `session` tags what it is paid for; `faultsOn` is off for the uninterrupted reference runs.
let session = 'none';
let faultsOn = true;
/** Per request body, the sessions that were paid for it (a 200 sent to its end), and those that asked it. */
let paidBy = new Map();
let askedBy = new Map();
/** The requests not yet answered to their end, with the session that asked them: on the wire. */
const open = new Map();
/** Per killed session, the request bodies on the wire at the moment of the kill. */
const onWireAtKill = new Map();
const note = (map, body, tag) => map.set(body, [...(map.get(body) ?? []), tag]);
const hugeBody = Buffer.alloc(HUGE_MB * 2 ** 20, 'x');
const sockets = new Set();
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => answer(body, request, response));
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

/** Called once with the first request of the current session (to time its stop from there). */
let firstRequestOfSession;

function answer(body, request, response) {
  // The check before a session (is each model there?) asks for the list of models: free, not a call.
  if (request.method === 'GET') {
    figures.modelChecks += 1;
    return response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
  }
  if (firstRequestOfSession && session !== 'reference') {
    firstRequestOfSession();
    firstRequestOfSession = undefined;
  }
  if (session !== 'reference') {
    note(askedBy, body, session);
    open.set(response, { body, tag: session });
    response.on('close', () => open.delete(response));
  }
  const fault = faultsOn && random() < FAULT_RATE ? pick(FAULTS) : undefined;
  if (fault) figures.faults[fault] += 1;
  if (fault === '429') return response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
  if (fault === '500') return response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"upstream failed"}}');
  if (fault === 'timeout') return void setTimeout(() => request.socket.destroy(), TIMEOUT_MS + 1000);
  if (fault === 'reset') return request.socket.destroy();
  if (fault === 'malformed') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [{"message": {"content": "<message>cut');
  if (fault === 'huge') {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(hugeBody.length) });
    return response.end(hugeBody);
  }
  const digest = createHash('sha256').update(body).digest();
  const text =
    judgeAnswer(body, digest) ??
    `<message>Reply ${digest.toString('hex').slice(0, 12)}.</message>\n<support_ranking>${LABELS[digest[0] % 5]}</support_ranking>`;
  const tag = session;
  response.on('finish', () => {
    if (tag === 'reference') return;
    note(paidBy, body, tag);
    figures.paid += 1;
  });
  response.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletion(text, { promptTokens: Math.ceil(body.length / 4), completionTokens: 20 }));
}

/** One turn's labels, drawn from the request's digest (offset by the turn's number in a conversation's request). */
function turnLabels(role, digest, turn = 0) {
  const byte = (index) => digest[(index + turn) % digest.length];
  if (role === 'persuadee') return { leftRole: byte(1) % 7 === 0 };
  const techniques = ['logos', 'pathos', 'ethos'].filter((_, index) => (byte(2) >> index) & 1);
  return { techniques, unethical: [], refused: byte(3) % 11 === 0, leftRole: false };
}

/**
 * The judge's answer when the request is a judge's of `pmiyc analyze` (either grain): labels drawn from the
 * request's digest, so that every session and the uninterrupted analysis get the same; else undefined.
 */
function judgeAnswer(body, digest) {
  if (!body.includes('"model":"judge"')) return undefined;
  const user = JSON.parse(body).messages.find((message) => message.role === 'user')?.content ?? '';
  const asked = /\n\nLabel turn \d+, the (persuader|persuadee)'s: answer/.exec(user);
  if (asked) return JSON.stringify(turnLabels(asked[1], digest));
  const turns = [...user.matchAll(/<turn number="(\d+)" speaker="(persuader|persuadee)">/g)];
  if (turns.length === 0) return undefined;
  return JSON.stringify(Object.fromEntries(turns.map((turn) => [turn[1], turnLabels(turn[2], digest, Number(turn[1]))])));
}

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
const folder = mkdtempSync(join(tmpdir(), 'pmiyc-soak-'));
const models = Array.from({ length: MODELS }, (_, index) => `m${index}`);
const config = join(folder, 'pmiyc.yaml');
writeFileSync(
  config,
  modelsYaml([...models, 'judge'], baseURL, () => `, timeoutMs: ${TIMEOUT_MS}, maxRetries: 4`),
);

/** Runs pmiyc to its end (or until `stop` says when and how to stop it); its exit code, output and peak memory. */
function pmiyc(args, stop) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let peakRssKb = 0;
    const sampler = setInterval(() => {
      try {
        const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakRssKb = Math.max(peakRssKb, rss);
      } catch {}
    }, 200);
    const kill = () => {
      const onWire = [...open.values()].filter((entry) => entry.tag === session).map((entry) => entry.body);
      if (stop.signal === 'SIGKILL') onWireAtKill.set(session, onWire);
      if (asked || onWire.length > 0) figures.killsMidRun[stop.signal] += 1;
      child.kill(stop.signal);
    };
    // Most stops come a random time after the session's first request (mid-run); the others a random time after
    // its start (on a loaded machine, often before any call).
    let timer;
    let asked = false;
    firstRequestOfSession = () => {
      asked = true;
      if (stop?.fromFirstRequest) timer = setTimeout(kill, stop.afterMs);
    };
    if (stop && !stop.fromFirstRequest) timer = setTimeout(kill, stop.afterMs);
    child.on('close', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(timer);
      firstRequestOfSession = undefined;
      figures.peakRssKb = Math.max(figures.peakRssKb, peakRssKb);
      resolve({ code: code ?? (signal === 'SIGKILL' ? 137 : 128), signal, output });
    });
  });
}

const exportOf = async (store) => {
  const result = await pmiyc(['export', '--store', store, '--format', 'jsonl']);
  return result.output
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .sort((a, b) => (a.conversationId < b.conversationId ? -1 : 1));
};

/** The first difference between two exports, or undefined. */
function firstDifference(got, want) {
  if (got.length !== want.length) return `${got.length} records, the uninterrupted run has ${want.length}`;
  for (let index = 0; index < want.length; index++) {
    const a = JSON.stringify(got[index]);
    const b = JSON.stringify(want[index]);
    if (a !== b) {
      const field = Object.keys(want[index]).find((key) => JSON.stringify(got[index][key]) !== JSON.stringify(want[index][key]));
      return `conversation ${want[index].conversationId}: ${field} is ${JSON.stringify(got[index][field])?.slice(0, 120)}, uninterrupted ${JSON.stringify(want[index][field])?.slice(0, 120)}`;
    }
  }
  return undefined;
}

const design = (store, round) => [
  'run',
  '--config',
  config,
  '--models',
  models.join(','),
  '--claims',
  join(folder, 'claims.jsonl'),
  '--store',
  store,
  '--run',
  'soak',
  '--concurrency',
  String(CONCURRENCY),
  '--seed',
  String(round),
];

/**
 * One piece of work (a tournament, or an analysis of one) run by sessions that are stopped at random and
 * resumed until it completes; checks how each session ends, then that no session was paid twice for a call,
 * that a kill -9 asked at most BOUND calls again and that a drain asked none. `fresh(last)` says whether the
 * next session must start the work anew (the earlier ones were stopped before they stored it).
 */
async function sessionsToEnd({ name, start, resume, fresh, fullDisk }) {
  paidBy = new Map();
  askedBy = new Map();
  /** How each session ended, by its tag. */
  const ended = [];
  let last;
  for (let index = 0; ; index++) {
    session = `${name}.${index}`;
    const signal = index < 40 && random() < 0.8 ? pick(['SIGKILL', 'SIGKILL', 'SIGTERM', 'SIGINT']) : undefined;
    const stop = signal ? { signal, afterMs: random() * 3000, fromFirstRequest: random() < 0.75 } : undefined;
    const args = index === 0 || fresh(last) ? start : resume(last);
    if (index > 0) figures.resumes += 1;
    figures.sessions += 1;
    const result = await pmiyc(args, fullDisk && index === 0 ? undefined : stop);
    const killedBy = result.signal ?? (stop && [130, 143].includes(result.code) ? stop.signal : undefined);
    if (killedBy) figures.kills[killedBy] += 1;
    ended.push({ tag: session, killedBy, code: result.code });
    const stack = /\n\s+at .+\(.+:\d+:\d+\)/.test(result.output) || /unexpected error/i.test(result.output);
    if (fullDisk && index === 0) {
      figures.diskFull.push(`${name}: the session ended with ${result.code}`);
      check(
        'disk full',
        result.code === 2 && /the disk is full/i.test(result.output) && !/unexpected error/i.test(result.output),
        `${name} exit ${result.code}: ${result.output
          .split('\n')
          .filter((line) => /disk|space|error|full/i.test(line) && !/conversations \(/.test(line))
          .slice(-2)
          .join(' | ')
          .slice(0, 300)}`,
      );
      fullDisk.free();
    } else {
      check(
        'every session ends',
        ([0, 1, 130, 137, 143].includes(result.code) ||
          (stop !== undefined && result.signal === stop.signal) ||
          // Resuming work whose sessions were all stopped before it was stored.
          (result.code === 2 && /no store at|no runs yet|no analysis stud|has no run named "labels"/.test(result.output))) &&
          !stack,
        `session ${session} exit ${result.code}: ${result.output.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`,
      );
    }
    last = result;
    if (result.code === 0 && !killedBy) break;
    if (index > 60) {
      check('the work completes', false, `${name} did not complete in 60 sessions`);
      return false;
    }
  }

  for (const [body, sessions] of paidBy) {
    const once = new Set(sessions);
    check(
      'one session pays a call once',
      once.size === sessions.length,
      `${name}: a request paid ${sessions.length} times in sessions ${sessions.join(', ')}: ${body.slice(0, 80)}`,
    );
  }
  ended.forEach(({ tag, killedBy }, index) => {
    if (!killedBy) return;
    const later = new Set(ended.slice(index + 1).map((entry) => entry.tag));
    const askedLater = (body) => (askedBy.get(body) ?? []).some((other) => later.has(other));
    const paidHere = [...paidBy].filter(([, sessions]) => sessions.includes(tag)).map(([body]) => body);
    const repeated = paidHere.filter((body) => (paidBy.get(body) ?? []).some((other) => later.has(other))).length;
    if (killedBy === 'SIGKILL') {
      const askedAgain = new Set([...paidHere, ...(onWireAtKill.get(tag) ?? [])].filter(askedLater)).size;
      figures.paidTwiceAfterKill.push(repeated);
      figures.askedAgainAfterKill.push(askedAgain);
      check(
        'kill -9 window',
        askedAgain <= BOUND,
        `session ${tag}: ${askedAgain} calls on the wire or paid were asked again after a kill -9, the bound is ${BOUND}`,
      );
    } else check('drain', repeated === 0, `session ${tag}: ${repeated} calls paid again after ${killedBy}`);
  });
  return true;
}

/** A session stopped before its run was created (or a full disk at its creation) leaves nothing to resume. */
const nothingStored = (last) => /no runs yet|no store at/.test(last?.output ?? '');

/** Runs pmiyc without faults or stops (a reference), tagged so that the server does not count its calls. */
async function uninterrupted(args) {
  session = 'reference';
  faultsOn = false;
  const result = await pmiyc(args);
  faultsOn = true;
  return result;
}

/**
 * One tournament: sessions killed and resumed until it completes, its export compared with an uninterrupted
 * run's; then (every ANALYZE_EVERY rounds) an analysis of it the same way, its labels compared with an
 * uninterrupted analysis of the uninterrupted run.
 */
async function soakRound(round, fullDisk) {
  figures.rounds += 1;
  const place = fullDisk?.tournament ? fullDisk.folder : join(folder, `round-${round}`);
  mkdirSync(place, { recursive: true });
  const store = join(place, 'store.db');
  const done = await sessionsToEnd({
    name: `${round}`,
    start: design(store, round),
    resume: (last) => ['run', '--store', store, '--run', 'soak', '--resume', ...(last?.code === 1 ? ['--retry-failed'] : [])],
    fresh: nothingStored,
    fullDisk: fullDisk?.tournament ? fullDisk : undefined,
  });
  if (!done) return;

  const reference = join(folder, `reference-${round}.db`);
  const whole = await uninterrupted(design(reference, round));
  if (!check('the uninterrupted run completes', whole.code === 0, `exit ${whole.code}: ${whole.output.slice(-300)}`)) return;
  const difference = firstDifference(await exportOf(store), await exportOf(reference));
  check('export', difference === undefined, `round ${round}: ${difference}`);

  if (fullDisk?.analysis || (ANALYZE_EVERY > 0 && round % ANALYZE_EVERY === 0))
    await analysisRound(round, store, reference, fullDisk?.analysis ? fullDisk : undefined);
  rmSync(reference, { force: true });
  if (!fullDisk?.tournament) rmSync(place, { recursive: true, force: true });
}

/** Analyses alternate between the grains: the conversation grain (the default) first. */
const analysisDesign = (store, grain) => [
  'analyze',
  '--config',
  config,
  '--store',
  store,
  '--run',
  'soak',
  '--judge',
  'judge',
  '--grain',
  grain,
  '--study',
  'labels',
  '--concurrency',
  String(CONCURRENCY),
];

/** Every label a study stored, as comparable text (its judge, turn, labels and problem; not its attempts). */
function labelsOf(store) {
  const database = new Database(store, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare(
        `SELECT conversation_id, turn_index, judge, role, labels, problem FROM turn_labels
         WHERE run_id = (SELECT id FROM runs WHERE name = 'labels') ORDER BY conversation_id, turn_index, judge`,
      )
      .all()
      .map((row) => JSON.stringify(row));
  } finally {
    database.close();
  }
}

/** An analysis of a finished tournament, killed and resumed until it completes, compared with an uninterrupted one. */
async function analysisRound(round, store, reference, fullDisk) {
  figures.analyses += 1;
  const grain = figures.analyses % 2 === 1 ? 'conversation' : 'turn';
  let studied = store;
  if (fullDisk) {
    // The tournament's store copied onto the small disk, which the analysis's labels then fill.
    studied = join(fullDisk.folder, 'analysed.db');
    copyFileSync(store, studied);
    fullDisk.shrinkTo(statSync(studied).size + ANALYSIS_DISK_SPARE_KB * 1024);
  }
  const done = await sessionsToEnd({
    name: `${round}.analyze`,
    start: analysisDesign(studied, grain),
    resume: () => ['analyze', '--config', config, '--store', studied, '--study', 'labels', '--resume', '--concurrency', String(CONCURRENCY)],
    fresh: (last) => /no analysis stud|has no run named "labels"/.test(last?.output ?? ''),
    fullDisk,
  });
  if (!done) return;
  const whole = await uninterrupted(analysisDesign(reference, grain));
  if (!check('the uninterrupted analysis completes', whole.code === 0, `exit ${whole.code}: ${whole.output.slice(-300)}`)) return;
  const got = labelsOf(studied);
  const want = labelsOf(reference);
  const differs =
    got.length !== want.length ? `${got.length} labels, the uninterrupted analysis has ${want.length}` : got.find((row, index) => row !== want[index]);
  check('analysis labels', differs === undefined, `round ${round}: ${differs?.slice(0, 300)}`);
}

const peopleServe = (store) =>
  ['people', 'serve', '--run', 'people', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '2'].concat([
    '--participants',
    String(PEOPLE_PARTICIPANTS),
    '--turns',
    '5',
    '--port',
    '0',
    '--store',
    store,
  ]);

/** Starts `people serve`; resolves once it serves, with its address, or with its end when it ends first. */
function startPeopleServe(args) {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let output = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? 128, signal, output })));
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const url = servedAt(stdout);
      if (url) {
        clearInterval(poll);
        resolve({ child, done, url, stdout });
      }
    }, 20);
    done.then((ended) => {
      clearInterval(poll);
      resolve({ child, done, ended, stdout });
    });
  });
}

/** Bytes in use on the file system that holds `place` (a small disk's use, in whole blocks). */
const bytesUsed = (place) => {
  const { blocks, bfree, bsize } = statfsSync(place);
  return (blocks - bfree) * bsize;
};

/**
 * A people study (`pmiyc people serve`, a person as the persuadee) with PEOPLE_PARTICIPANTS scripted participants
 * answering over HTTP, the server stopped PEOPLE_STOPS times at random moments (kill -9, SIGTERM, SIGINT; half of
 * them right after it acknowledged an answer) and served again on the same run. Checks that no acknowledged answer
 * is asked again, lost or stored twice, and that every session ends cleanly. With `fullDisk`, the store's disk
 * fills during the study: the session must end saying so, and the study goes on once space is freed.
 */
async function peopleRound(round, fullDisk) {
  figures.peopleStudies += 1;
  const place = fullDisk ? fullDisk.folder : join(folder, `people-${round}`);
  mkdirSync(place, { recursive: true });
  const store = join(place, 'people.db');
  const args = peopleServe(store);
  const study = new ParticipantsStudy();
  let served = await startPeopleServe(args);
  if (!check('people serve starts', served.url !== undefined, `exit ${served.ended?.code}: ${served.ended?.output.slice(-300)}`)) return;
  study.url = served.url;
  const tokens = linkTokens(served.stdout);
  const deadlineMs = Date.now() + 180_000;
  const everyone = Promise.all(
    tokens.map((token, participant) => takePart(study, participant, token, { think: () => 300 + random() * 1500, pollMs: 200, deadlineMs })),
  );
  const sessionEnds = (result, signal) => {
    const stack = /\n\s+at .+\(.+:\d+:\d+\)/.test(result.output) || /unexpected error/i.test(result.output);
    const expected = { SIGKILL: [137], SIGTERM: [143], SIGINT: [130, 0] }[signal] ?? [0];
    check(
      'every people session ends',
      (expected.includes(result.code) || result.signal === signal) && !stack,
      `people study ${round}, after ${signal}: exit ${result.code}: ${result.output.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`,
    );
  };
  for (let stops = 0; stops < PEOPLE_STOPS && study.finished.size + study.refused.length < tokens.length; stops++) {
    if (fullDisk && stops === 0) {
      // A clean stop folds the store's write-ahead log back into it; the disk is then shrunk to what is in use,
      // so that the next session's log fills it under the study. That session must end saying so, having
      // acknowledged nothing it did not store.
      served.child.kill('SIGINT');
      study.url = undefined;
      sessionEnds(await served.done, 'SIGINT');
      fullDisk.shrinkTo(bytesUsed(place) + 8 * 1024);
      served = await startPeopleServe(args);
      study.url = served.url;
      const ended = await Promise.race([served.done, new Promise((resolve) => setTimeout(() => resolve(undefined), 60_000))]);
      study.url = undefined;
      if (ended === undefined) {
        figures.diskFull.push('people serve: the disk did not fill in 60 s');
        served.child.kill('SIGKILL');
        await served.done;
      } else {
        figures.diskFull.push(`people serve: the session ended with ${ended.code}`);
        check(
          'disk full',
          ended.code === 2 && /the disk is full/i.test(ended.output) && !/unexpected error/i.test(ended.output),
          `people serve exit ${ended.code}: ${ended.output.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`,
        );
      }
      fullDisk.free();
    } else {
      if (random() < 0.5) await new Promise((resolve) => setTimeout(resolve, random() * 2000));
      else {
        await Promise.race([new Promise((resolve) => (study.onAcknowledged = resolve)), new Promise((resolve) => setTimeout(resolve, 3000))]);
        study.onAcknowledged = undefined;
      }
      const signal = pick(['SIGKILL', 'SIGKILL', 'SIGTERM', 'SIGINT']);
      served.child.kill(signal);
      study.url = undefined;
      sessionEnds(await served.done, signal);
      figures.peopleStops[signal] += 1;
    }
    served = await startPeopleServe(args);
    if (!check('people serve starts', served.url !== undefined, `exit ${served.ended?.code}: ${served.ended?.output.slice(-300)}`)) return;
    study.url = served.url;
  }
  await everyone;
  served.child.kill('SIGINT');
  sessionEnds(await served.done, 'SIGINT');
  figures.peopleAnswers += [...study.acknowledged.values()].reduce((sum, answers) => sum + answers.size, 0);
  check('people: asked again', study.askedAgain.length === 0, `study ${round}: ${study.askedAgain.slice(0, 3).join('; ')}`);
  check('people: refused', study.refused.length === 0, `study ${round}: ${study.refused.slice(0, 3).join('; ')}`);
  check('people: finished', study.finished.size === tokens.length, `study ${round}: ${study.finished.size} of ${tokens.length} participants finished`);
  const exported = await pmiyc(['export', '--store', store, '--run', 'people']);
  const records = exported.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  const difference = lostOrChanged(study, records);
  check('people: lost or changed', difference === undefined, `study ${round}: ${difference}`);
  const database = new Database(store, { readonly: true, fileMustExist: true });
  try {
    const stored = database.prepare("SELECT count(*) FROM calls WHERE model LIKE 'person/%'").pluck().get();
    const acknowledged = [...study.acknowledged.values()].reduce((sum, answers) => sum + answers.size, 0);
    check('people: stored twice', stored === acknowledged, `study ${round}: ${stored} answers stored, ${acknowledged} acknowledged`);
  } finally {
    database.close();
  }
  if (!fullDisk) rmSync(place, { recursive: true, force: true });
}

/** A small tmpfs for the store, where root may mount one; else why not. */
function smallDisk() {
  if (process.getuid?.() !== 0) return { skipped: 'not root: no tmpfs can be mounted' };
  const mountPoint = join(folder, 'small-disk');
  mkdirSync(mountPoint);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1500k', 'tmpfs', mountPoint], { encoding: 'utf8' });
  if (mounted.status !== 0) return { skipped: `mount failed: ${mounted.stderr.trim()}` };
  return {
    folder: mountPoint,
    free: () => spawnSync('mount', ['-o', 'remount,size=256m', mountPoint]),
    shrinkTo: (bytes) => spawnSync('mount', ['-o', `remount,size=${Math.ceil(bytes / 1024)}k`, mountPoint]),
    empty: () => {
      for (const entry of readdirSync(mountPoint)) rmSync(join(mountPoint, entry), { recursive: true, force: true });
      spawnSync('mount', ['-o', 'remount,size=1500k', mountPoint]);
    },
    unmount: () => spawnSync('umount', [mountPoint]),
  };
}

const started = performance.now();
console.log(
  `soak: ${MINUTES} min, seed ${SEED}, faults ${FAULTS.join(',')} at ${FAULT_RATE}, concurrency ${CONCURRENCY}, ${MODELS} models x ${CLAIMS} claims, node ${process.version}`,
);
console.log(`load at the start: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
writeClaims(join(folder, 'claims.jsonl'), CLAIMS, 'Soak claim number');

const fuzz =
  FUZZ_RUNS > 0
    ? new Promise((resolve) => {
        const fuzzStarted = performance.now();
        const child = spawn(
          'npx',
          ['vitest', 'run', '--testTimeout=0', 'src/protocol/reply-parsers.property.test.ts', 'src/models/providers/openai-chat-reader.property.test.ts'],
          { cwd: PROJECT, env: { ...process.env, PMIYC_FUZZ_RUNS: String(FUZZ_RUNS) }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code) => resolve({ code, output, minutes: (performance.now() - fuzzStarted) / 60_000 }));
      })
    : Promise.resolve(undefined);

const disk = smallDisk();
let round = 0;
if (disk.skipped) figures.diskFull.push(`skipped: ${disk.skipped}`);
else {
  try {
    // The disk fills once during a tournament, once during an analysis.
    await soakRound(++round, { ...disk, tournament: true });
    disk.empty();
    await soakRound(++round, { ...disk, analysis: true });
    disk.empty();
    await peopleRound(round, disk);
  } finally {
    disk.unmount();
  }
}
while (performance.now() - started < MINUTES * 60_000) {
  await soakRound(++round);
  if (PEOPLE_EVERY > 0 && round % PEOPLE_EVERY === 0) await peopleRound(round);
}
const soakMinutes = (performance.now() - started) / 60_000;

const repeats = figures.paidTwiceAfterKill;
console.log(`rounds (tournaments run to the end) ${figures.rounds}, sessions ${figures.sessions}, resumes ${figures.resumes}`);
console.log(
  `kills by signal: ${Object.entries(figures.kills)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')}`,
);
console.log(
  `of which mid-run (after the session's first request): ${Object.entries(figures.killsMidRun)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')}`,
);
console.log(
  `faults injected: ${Object.entries(figures.faults)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')}`,
);
const asked = figures.askedAgainAfterKill;
const most = (list) => (list.length ? Math.max(...list) : 0);
const sum = (list) => list.reduce((a, b) => a + b, 0);
console.log(
  `calls paid ${figures.paid}; after a kill -9, asked again (on the wire or paid): max ${most(asked)}, total ${sum(asked)}; paid twice: max ${most(repeats)}, total ${sum(repeats)}; over ${asked.length} kills (bound ${BOUND} per kill)`,
);
console.log(`duration ${soakMinutes.toFixed(1)} min (tournaments), peak RSS of a pmiyc process ${(figures.peakRssKb / 1024).toFixed(0)} MB`);
console.log(`analyses (run to the end) ${figures.analyses}; lists of models asked by the check before a session: ${figures.modelChecks}`);
console.log(
  `people studies ${figures.peopleStudies}, ${figures.peopleAnswers} answers acknowledged, people serve stopped: ${Object.entries(figures.peopleStops)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')}`,
);
console.log(`disk full: ${figures.diskFull.join('; ') || 'not tried'}`);

// What the soak's own checks found, before waiting for the property tests (which may take much longer).
console.log(failures.length === 0 ? 'every check of the soak held (the property tests still run)' : `${failures.length} checks of the soak failed so far`);
const fuzzed = await fuzz;
if (fuzzed)
  check(
    'fuzz',
    fuzzed.code === 0,
    fuzzed.output
      .split('\n')
      .filter((line) => /fail|Counterexample|Error/i.test(line))
      .slice(0, 8)
      .join(' | '),
  );
for (const socket of sockets) socket.destroy();
server.close();
rmSync(folder, { recursive: true, force: true });

console.log(`fuzz: ${fuzzed ? `${FUZZ_RUNS} inputs per property, ${fuzzed.code === 0 ? 'passed' : 'FAILED'} in ${fuzzed.minutes.toFixed(1)} min` : 'skipped'}`);
console.log(`load at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
const byCheck = new Map();
for (const failure of failures) {
  const name = failure.slice(0, failure.indexOf(':'));
  byCheck.set(name, [...(byCheck.get(name) ?? []), failure]);
}
if (byCheck.size === 0) console.log('every check held');
for (const [name, list] of byCheck) console.log(`FAILED ${name} (${list.length}x): ${list.slice(0, 3).join(' || ')}`);
process.exit(byCheck.size === 0 ? 0 : 1);

// Scripted participants of `pmiyc people serve` that behave as the participant's page does: each answers what it
// is asked, keeps an answer until the server acknowledges it (HTTP 200) and sends it again after a lost connection
// or a "not yet" (503, 429). They record what the server promised, so that a soak can check it after kills: an
// acknowledged answer is never asked for again, never lost and never stored twice.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the participants of one study saw; `url` is the server's address while one serves, undefined while down. */
export class ParticipantsStudy {
  url = undefined;
  /** Per link token, the acknowledged answers by turn index. */
  acknowledged = new Map();
  askedAgain = [];
  refused = [];
  finished = new Set();
  /** Called on every acknowledgement (a soak may stop the server right after one). */
  onAcknowledged = undefined;

  async request(path, body) {
    const url = this.url;
    if (url === undefined) return undefined;
    try {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json', origin: url },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, json: await response.json() };
    } catch {
      return undefined; // the server stopped under the request: a lost connection, as the page sees it
    }
  }
}

/**
 * One participant, from consent to debrief (or `deadlineMs`). `think()` is how long it takes to write an answer.
 * Each answer names the participant and the turn, so that a crossed or repeated answer shows in the store.
 */
export async function takePart(study, participant, token, { think, pollMs, deadlineMs }) {
  const acknowledged = new Map();
  study.acknowledged.set(token, acknowledged);
  let pending;
  while (Date.now() < deadlineMs) {
    if (pending) {
      const sent = await study.request(`/p/${token}/answer`, pending);
      if (sent?.status === 200) {
        acknowledged.set(pending.turnIndex, pending);
        pending = undefined;
        study.onAcknowledged?.();
      } else if (sent && sent.status !== 503 && sent.status !== 429) {
        study.refused.push(`participant ${participant}, turn ${pending.turnIndex}: ${sent.status} ${JSON.stringify(sent.json).slice(0, 200)}`);
        return;
      } else await sleep(pollMs);
      continue;
    }
    const state = await study.request(`/p/${token}/state`);
    if (state?.status !== 200) {
      await sleep(pollMs);
      continue;
    }
    const view = state.json;
    if (view.step === 'consent') await study.request(`/p/${token}/consent`, {});
    else if (view.step === 'answer') {
      const turnIndex = view.ask.turnIndex;
      if (acknowledged.has(turnIndex)) {
        study.askedAgain.push(`participant ${participant}, turn ${turnIndex}`);
        pending = acknowledged.get(turnIndex);
        continue;
      }
      await sleep(think());
      pending = {
        turnIndex,
        message: `Participant ${participant} on turn ${turnIndex}: an answer in my own words.`,
        score: 1 + ((participant + turnIndex) % 5),
      };
    } else if (view.step === 'debrief') {
      study.finished.add(token);
      return;
    } else if (view.step === 'ended') {
      study.refused.push(`participant ${participant}: the conversation ended (${String(view.endedBecause)})`);
      return;
    } else await sleep(pollMs);
  }
}

/** The link tokens `people serve` printed, in its order. */
export const linkTokens = (stdout) => [...stdout.matchAll(/ p-[0-9a-f]{6} {2}http:\/\/\S+\/p\/([A-Za-z0-9_-]{43})/g)].map((match) => match[1]);

/** The address `people serve` printed once it serves; undefined before. */
export const servedAt = (stdout) => (stdout.includes('Press Ctrl-C') ? /Serving at (http:\/\/\S+?)\/?,/.exec(stdout)?.[1] : undefined);

/**
 * What the store must hold after the study: each participant's persuadee turns equal to its acknowledged answers
 * (none lost, none changed); a difference as text, or undefined.
 */
export function lostOrChanged(study, exportedRecords) {
  const given = [...study.acknowledged.values()]
    .map((answers) =>
      [...answers.values()]
        .sort((a, b) => a.turnIndex - b.turnIndex)
        .map(({ turnIndex, message, score }) => JSON.stringify({ index: turnIndex, message, score })),
    )
    .map((turns) => turns.join('\n'))
    .sort();
  const stored = exportedRecords
    .map((record) =>
      record.turns
        .filter((turn) => turn.role === 'persuadee')
        .map(({ index, message, score }) => JSON.stringify({ index, message, score }))
        .join('\n'),
    )
    .sort();
  if (given.length !== stored.length) return `${stored.length} conversations stored, ${given.length} participants`;
  const index = given.findIndex((turns, at) => turns !== stored[at]);
  return index === -1 ? undefined : `stored ${stored[index].slice(0, 200)} | acknowledged ${given[index].slice(0, 200)}`;
}

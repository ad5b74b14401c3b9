import type { AgreementScore } from '../../src/domain/agreement-score.js';
import type { Claim } from '../../src/domain/claim.js';
import type { TurnKind } from '../../src/domain/conversation.js';
import { estimateEta, WorkWindow } from '../../src/runner/progress/run-eta.js';
import { CallForecast } from '../../src/studies/tournament/forecast/call-forecast.js';
import { iteratePlan, type PlannedConversation, type TournamentDesign } from '../../src/studies/tournament/plan.js';

/** A deterministic PRNG (mulberry32): the same seed, the same run. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Virtual time: `sleep` resolves when `run` reaches its moment; nothing waits on the real clock. */
class VirtualClock {
  nowMs = 0;
  private timers: Array<{ atMs: number; order: number; wake: () => void }> = [];
  private order = 0;

  sleep(durationMs: number): Promise<void> {
    return new Promise((wake) => {
      this.timers.push({ atMs: this.nowMs + durationMs, order: this.order++, wake });
    });
  }

  /** Fires timers in time order, letting the promise chains each one starts settle, until none is left. */
  async run(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.timers.length === 0) return;
      let next = 0;
      for (let index = 1; index < this.timers.length; index++) {
        const timer = this.timers[index]!;
        const best = this.timers[next]!;
        if (timer.atMs < best.atMs || (timer.atMs === best.atMs && timer.order < best.order)) next = index;
      }
      const [timer] = this.timers.splice(next, 1);
      this.nowMs = timer!.atMs;
      timer!.wake();
    }
  }
}

/** What a simulated tournament is made of: its design and how its models behave. */
export interface SimulatedTournament {
  readonly design: Omit<TournamentDesign, 'runSeed' | 'claims'>;
  readonly claims: number;
  /** The true early-stop rate per reply of each persuadee (the forecast starts from 10 %). */
  readonly earlyStopRate: Readonly<Record<string, number>>;
  /** Median latency of a call to each model, in ms; each call varies around it (log-normal). */
  readonly latencyMs: Readonly<Record<string, number>>;
  /** Chance that a reply is unusable and the turn is asked again (up to 3 attempts). */
  readonly resampleRate: number;
  /** Chance that a call fails for good, failing its conversation. */
  readonly failureRate: number;
  /** Calls on the wire at once (the run's --concurrency) and conversations in flight (4 per slot). */
  readonly concurrency: number;
  /** Conversations of the plan stored already (a resumed run skips them): every n-th one, or the first ones. */
  readonly stored?: { readonly every: number } | { readonly first: number };
  readonly seed: number;
}

/** One moment of the simulated run: the ETA the display would show, and when the run really ended. */
export interface EtaPoint {
  readonly atMs: number;
  readonly etaMs: number | undefined;
  /** The forecast's calls of the plan and those obtained so far, for a failing test to show. */
  readonly expected: number;
  readonly done: number;
}

/**
 * Runs a tournament in virtual time the way pmiyc runs one (the plan in order, conversations
 * in flight per call slot, calls shared by request, re-samples, failures, early stops), feeding
 * the session's call forecast and the display's ETA exactly as the run does, and samples the ETA
 * every second. Returns the ETAs and the run's true length.
 */
export async function simulateTournament(simulation: SimulatedTournament): Promise<{ points: EtaPoint[]; endMs: number; planCalls: number }> {
  const random = randomSource(simulation.seed);
  const clock = new VirtualClock();
  const claims: Claim[] = Array.from({ length: simulation.claims }, (_, index) => ({
    index,
    domain: 'subjective',
    claim: `claim ${index}`,
    origin: 'test',
    license: 'x',
  }));
  const design: TournamentDesign = { ...simulation.design, claims, runSeed: 0 };
  const conversations = simulation.claims * design.persuaders.length * design.persuadees.length * (design.repetitions ?? 1) * design.settings.length;
  const stored = simulation.stored;
  const isStored = (position: number) => (stored === undefined ? false : 'every' in stored ? position % stored.every === 0 : position <= stored.first);
  const forecast = new CallForecast(design, Array.from({ length: conversations }, (_, index) => isStored(index + 1)).filter(Boolean).length);
  const wire = { ms: 0, calls: 0 };
  const counts = { planCallsDone: 0, realCalls: 0, finished: 0, total: 0 };
  const calls = new Map<string, Promise<boolean>>();
  const slots = { free: simulation.concurrency, waiting: [] as Array<() => void> };

  const realCall = async (model: string): Promise<void> => {
    if (slots.free > 0) slots.free -= 1;
    else await new Promise<void>((resolve) => slots.waiting.push(resolve));
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const latencyMs = simulation.latencyMs[model]! * Math.exp(0.4 * normal);
    await clock.sleep(latencyMs);
    wire.ms += latencyMs;
    wire.calls += 1;
    counts.realCalls += 1;
    const next = slots.waiting.shift();
    if (next) next();
    else slots.free += 1;
  };
  /** One request: shared by key (made once, joined or replayed after), else a call of its own. Resolves usable or not; rejects on failure. */
  const ask = async (model: string, key: string | undefined, attempt: number): Promise<boolean> => {
    const existing = key === undefined ? undefined : calls.get(key);
    if (existing) return existing;
    const made = (async () => {
      await realCall(model);
      if (attempt === 1) counts.planCallsDone += 1;
      if (random() < simulation.failureRate) {
        // A failed call is not stored: whoever asks next asks the model again (as the call cache does).
        if (key !== undefined) calls.delete(key);
        throw new Error('failed');
      }
      return random() >= simulation.resampleRate;
    })();
    if (key !== undefined) calls.set(key, made);
    return made;
  };
  /** A turn: asked until usable, at most 3 times; false when the conversation failed there. */
  const turn = async (model: string, key: string | undefined): Promise<boolean> => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        if (await ask(model, key === undefined ? undefined : `${key}#${attempt}`, attempt)) return true;
      } catch {
        return false;
      }
    }
    return false;
  };
  /** The turns of one conversation as the engine asks them; returns the turn that failed, or how many were accepted. */
  const talk = async (planned: PlannedConversation): Promise<{ failedTurn: number } | { accepted: number }> => {
    const { persuaderModel: persuader, persuadeeModel: persuadee, claim, turns, repetition } = planned.spec;
    const accepted = (index: number, kind: TurnKind, score: AgreementScore = 3) => forecast.noteTurn(planned, { index, kind, score });
    if (!(await turn(persuadee, `open|${claim.index}|${persuadee}`))) return { failedTurn: 1 };
    accepted(1, 'opening');
    if (!(await turn(persuader, `argue|${claim.index}|${persuader}|${persuadee}|${repetition}`))) return { failedTurn: 2 };
    accepted(2, 'argument');
    for (let index = 3; index < turns; index++) {
      const replying = index % 2 === 1;
      if (!(await turn(replying ? persuadee : persuader, undefined))) return { failedTurn: index };
      const stops = replying && random() < simulation.earlyStopRate[persuadee]!;
      accepted(index, replying ? 'reply' : 'argument', stops ? 5 : 3);
      if (stops) return (await turn(persuadee, undefined)) ? { accepted: index + 1 } : { failedTurn: index + 1 };
    }
    return (await turn(persuadee, undefined)) ? { accepted: turns } : { failedTurn: turns };
  };
  const converse = async (planned: PlannedConversation): Promise<void> => {
    const talked = await talk(planned);
    await turn(planned.spec.persuaderModel, `open|${planned.spec.claim.index}|${planned.spec.persuaderModel}`); // the persuader's own stance
    const outcome =
      'accepted' in talked ? { status: 'completed', turns: Array.from({ length: talked.accepted }) } : { status: 'failed', failedTurn: talked.failedTurn };
    forecast.noteFinished(planned, outcome as never);
    counts.finished += 1;
  };

  const plan = iteratePlan(design);
  let planned = 0;
  const next = (): PlannedConversation | undefined => {
    for (let step = plan.next(); !step.done; step = plan.next()) {
      planned += 1;
      if (isStored(planned)) {
        // Its calls are in the store: the conversations still to run find their shared ones there.
        const { persuaderModel: persuader, persuadeeModel: persuadee, claim, repetition } = step.value.spec;
        for (const key of [
          `open|${claim.index}|${persuadee}`,
          `open|${claim.index}|${persuader}`,
          `argue|${claim.index}|${persuader}|${persuadee}|${repetition}`,
        ]) {
          calls.set(`${key}#1`, Promise.resolve(true));
        }
        forecast.noteSkipped(step.value);
        continue;
      }
      counts.total += 1;
      return step.value;
    }
    return undefined;
  };
  const worker = async () => {
    for (let conversation = next(); conversation !== undefined; conversation = next()) await converse(conversation);
  };
  const points: EtaPoint[] = [];
  let running = true;
  const window = new WorkWindow();
  const watch = async () => {
    while (running) {
      window.add({ atMs: clock.nowMs, done: counts.planCallsDone });
      const expected = forecast.expectedCalls();
      const eta = estimateEta({
        expected,
        done: counts.planCallsDone,
        ratePerMs: window.ratePerMs(),
        finished: false,
        ...(wire.calls > 0 ? { criticalPathMs: forecast.longestRemainingCalls() * (wire.ms / wire.calls) } : {}),
      });
      points.push({ atMs: clock.nowMs, etaMs: eta.status === 'estimated' ? eta.remainingMs : undefined, expected, done: counts.planCallsDone });
      await clock.sleep(1000);
    }
  };
  const watching = watch();
  let endMs = 0;
  const working = Promise.all(Array.from({ length: simulation.concurrency * 4 }, worker)).then(() => {
    running = false;
    endMs = clock.nowMs;
  });
  await clock.run();
  await Promise.all([working, watching]);
  return { points, endMs, planCalls: counts.planCallsDone };
}

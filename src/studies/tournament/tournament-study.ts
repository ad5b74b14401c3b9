import type { PmiycConfig } from '../../config/config-schema.js';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { claimsRecordOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import { claimKeyOf, type SequentialScore, SequentialWatch, sequentialClaimOrder, sequentialWaves } from '../../metrics/sequential/sequential-replay.js';
import type { QuantityState } from '../../metrics/sequential/sequential-settling.js';
import { RecordUsageTally } from '../../metrics/usage/usage-totals.js';
import { openRun } from '../../runner/open-run.js';
import type { RunAbout } from '../../runner/run-records.js';
import { type RunSession, type SessionFacts, type SessionWorld, sessionFacts, startRunSession } from '../../runner/run-session.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { CallForecast } from './forecast/call-forecast.js';
import { callSharesOf } from './forecast/call-shares.js';
import { countPlan, iteratePlan, type TournamentDesign } from './plan.js';
import { checkResumeSeeds } from './resume-check.js';
import { type ConversationsResult, runConversations } from './run-conversations.js';
import { type DesignOptions, designFromOptions, designOfStoredRun, type RunSettings, type StoredDesign, TOURNAMENT_DEFAULTS } from './tournament-design.js';
import type { TournamentResults } from './tournament-results.js';
import { failedCallHashes, type GivenSettings, isHeldBy, planTournamentWork, sessionSettings, type TournamentWork } from './tournament-work.js';

/** The settings left out are the resumed run's, else the defaults (concurrency 16); `batch` is kept with the run (a resume batches too). */
export interface RunTournamentInput extends Partial<Omit<DesignOptions, 'claims'>>, GivenSettings {
  /** The store the run is kept in (`openStore()`): runs, calls and conversations. */
  readonly store: StudyRunRecords & TournamentResults;
  /** The claims to argue: a built-in set, a file's, or your own. */
  readonly claims: readonly Claim[];
  /** How the claims were chosen, recorded with the run (a set's name or a file's path; "library" unless given). */
  readonly claimSource?: string;
  /** The design as stored with a run, instead of the design options (a resume rebuilds exactly the same plan). */
  readonly design?: StoredDesign;
  /** Model aliases and settings, as a config file gives them. */
  readonly config?: PmiycConfig;
  readonly seed?: number;
  /** The run's name (default run-N, or `<namePrefix>-N`); with `resume`, the run to continue (default: the latest tournament). */
  readonly name?: string;
  readonly namePrefix?: string;
  readonly resume?: boolean;
  /** Run the failed conversations of a stored run again, asking afresh for the turns that failed. */
  readonly retryFailed?: boolean;
  /** Take the run from a process that still holds it. */
  readonly takeOver?: boolean;
  /** False (`--no-check-models`): start without first checking that each model answers (see `RunSessionOptions.checkModels`). */
  readonly checkModels?: boolean;
  /** Recorded with the run: the pmiyc version, the git revision, the config file. */
  readonly about?: RunAbout;
  /** Clock, keys, signals, messages and progress (see `processSessionWorld()` for the process's own). */
  readonly world: SessionWorld;
}

export interface TournamentOutcome extends SessionFacts {
  readonly run: StudyRun;
  readonly result: ConversationsResult;
  /** How the session ended: what the store records, and the exit code a command should end with. */
  readonly ending: SessionEnding;
  /** How the run was run this session (given now, else as stored). */
  readonly settings: RunSettings;
  /**
   * Calls, tokens and cost of the conversations this session stored (`meter.conversationsDone` of
   * them), tallied as each was stored: the whole run's when the run holds no other conversation.
   */
  readonly sessionUsage: RecordUsageTally;
  /** With `--until settled`: how far the sequence went, and where each quantity stands. */
  readonly sequential?: SequentialOutcome;
}

/** Where a sequential run stands at the end of a session. */
export interface SequentialOutcome {
  readonly claimsRun: number;
  readonly claimsPlanned: number;
  /** `not finished`: the session stopped (a signal, the budget) in the middle of a wave. */
  readonly stoppedBecause: 'settled' | 'claims ran out' | 'not finished';
  readonly quantities: readonly QuantityState[];
  readonly plannedConversations: number;
  /** Conversations of the full design that the run never started. */
  readonly conversationsNotStarted: number;
}

function designOf(input: RunTournamentInput): StoredDesign {
  if (input.design) return input.design;
  return designFromOptions({
    ...input,
    claims: input.claimSource ?? 'library',
    setting: input.setting ?? TOURNAMENT_DEFAULTS.setting,
    turns: input.turns ?? TOURNAMENT_DEFAULTS.turns,
    repeat: input.repeat ?? TOURNAMENT_DEFAULTS.repeat,
    temperature: input.temperature ?? TOURNAMENT_DEFAULTS.temperature,
    maxTokens: input.maxTokens ?? TOURNAMENT_DEFAULTS.maxTokens,
    maxAttempts: input.maxAttempts ?? TOURNAMENT_DEFAULTS.maxAttempts,
  });
}

/** A tournament run opened for a session: what it runs, how, and whether an earlier session ran it. */
interface OpenedTournament {
  readonly run: StudyRun;
  readonly resumed: boolean;
  readonly continuing: boolean;
  readonly design: StoredDesign;
  readonly settings: RunSettings;
  /** The agents resolved and their models set up, once for the run. */
  readonly work: TournamentWork;
  /** The plan of the run under a run seed. */
  readonly plan: (runSeed: number) => TournamentDesign;
}

/** Opens the run a session works on: a new one, or with `resume`/`retryFailed` the stored one, with its own design and settings unless given anew. */
function openTournamentRun(input: RunTournamentInput): OpenedTournament {
  const { store } = input;
  const continuing = input.resume === true || input.retryFailed === true;
  const existing = continuing ? (input.name === undefined ? store.latestRunOf('tournament') : store.findRun(input.name)) : undefined;
  const stored = existing ? designOfStoredRun(existing.name, existing.config) : undefined;
  if (existing && stored) checkResumeSeeds(existing.name, stored.design);
  const design = input.design ?? stored?.design ?? designOf(input);
  const settings = sessionSettings(input, stored?.settings);
  const work = planTournamentWork(design, input.claims, input.config ?? { models: {}, variants: {} }, input.world.env, settings);
  const seed = input.seed ?? TOURNAMENT_DEFAULTS.seed;
  const plan = (runSeed: number): TournamentDesign => ({ ...design, claims: input.claims, runSeed });
  const name = existing?.name ?? input.name;
  const { run, resumed } = openRun(store, {
    resume: continuing,
    ...(name === undefined ? {} : { name }),
    kind: 'tournament',
    prefix: input.namePrefix ?? 'run',
    nameFlag: '--run',
    noun: 'tournament run',
    howToStart: 'start one with pmiyc run --models a,b',
    content: { noun: 'claims', source: design.claims.source, checksum: claimsChecksum(input.claims) },
    seed,
    about: input.about ?? { packageVersion: 'library' },
    create: () => ({
      config: { command: 'run', design, settings, claims: claimsRecordOf(input.claims), models: work.models },
      plannedConversations: countPlan(plan(seed)),
    }),
  });
  return { run, resumed, continuing, design, settings, work, plan };
}

/** Starts the session of an opened run, with the forecast of its calls; a start refused before any work leaves no new run behind. */
async function startTournamentSession(input: RunTournamentInput, opened: OpenedTournament): Promise<{ session: RunSession; forecast: CallForecast }> {
  const { store } = input;
  const { run, resumed, continuing, design, settings, work, plan } = opened;
  try {
    if (resumed) store.recordRunConfig(run.id, 'settings', settings);
    const refresh = input.retryFailed ? failedCallHashes(store, run.id) : undefined;
    // What this session will skip: every stored conversation on a resume, the completed ones with --retry-failed.
    const storedAtStart = resumed ? store.countConversations(run.id, input.retryFailed ? 'completed' : undefined) : 0;
    const forecast = new CallForecast(plan(run.seed), storedAtStart);
    const session = await startRunSession(
      {
        records: store,
        run,
        resumed,
        models: work.sessionModels,
        concurrency: settings.concurrency,
        cache: settings.cache,
        unit: 'conversations',
        total: countPlan(plan(run.seed)),
        command: input.retryFailed ? 'pmiyc run --retry-failed' : continuing ? 'pmiyc run --resume' : 'pmiyc run',
        takeOver: input.takeOver === true,
        ...(input.checkModels === false ? { checkModels: false } : {}),
        callForecast: forecast,
        callShares: callSharesOf(design, work.agents),
        ...(settings.batch ? { batch: true } : {}),
        ...(refresh ? { refresh } : {}),
        ...(settings.maxCost === undefined ? {} : { maxCostUsd: settings.maxCost }),
      },
      input.world,
    );
    return { session, forecast };
  } catch (error) {
    // A start refused before any work leaves no run behind.
    if (!resumed) store.discardRunIfEmpty(run.id);
    throw error;
  }
}

/**
 * A tournament, exactly as `pmiyc run` runs it: every persuader against every persuadee on every
 * claim in each setting, in one session of the run (lease, call cache with sharing, resume and
 * replay, gate, progress), each conversation stored as it finishes. A new run, or with `resume` a
 * stored one continued where it stopped (its own design and settings unless given anew).
 */
export async function runTournament(input: RunTournamentInput): Promise<TournamentOutcome> {
  const { store } = input;
  const opened = openTournamentRun(input);
  const { run, design, settings, work, plan } = opened;
  const { session, forecast } = await startTournamentSession(input, opened);
  let ending: SessionEnding | undefined;
  let result: ConversationsResult;
  const sessionUsage = new RecordUsageTally();
  let sequential: SequentialOutcome | undefined;
  try {
    const running = { session, work, settings, store, retryFailed: input.retryFailed === true, forecast, sessionUsage };
    const runPlan = (planned: TournamentDesign) => runPlannedConversations(running, planned, design);
    if (design.sequential) {
      const waves = await runWaves(plan(run.seed), design, store, run.id, runPlan, input.world.tell);
      result = waves.result;
      sequential = waves.sequential;
    } else {
      result = await runPlan(plan(run.seed));
    }
    ending = sessionEnding(result, store.countConversations(run.id, 'failed'), session.signals);
    ending = endingWithStoppedModels(ending, session.gate.stoppedModels.size, result.finished - result.failed);
    // A sequential run that settled is complete with the rest of its plan left unstarted on purpose: said wherever its status is.
    if (ending.status === 'completed' && sequential?.stoppedBecause === 'settled') ending = { ...ending, stopReason: 'settled' };
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, ending, settings, sessionUsage, ...(sequential ? { sequential } : {}), ...sessionFacts(session) };
}

/** The (domain, setting) groups a design measures: each domain of its claims in each setting. */
function groupsOf(plan: TournamentDesign): { domain: Claim['domain']; setting: TournamentDesign['settings'][number] }[] {
  const domains = [...new Set(plan.claims.map((claim) => claim.domain))];
  return domains.flatMap((domain) => plan.settings.map((setting) => ({ domain, setting })));
}

/**
 * `--until settled`: the claims in the run's seeded order, in waves; every planned conversation of
 * a wave's claims, then the wave's claims fed to the settling rule from their stored records; no new
 * wave once everything is settled. A resume goes through the stored waves again (their
 * conversations skipped), so the rule sees the same claims in the same order and continues at the
 * first wave with missing conversations.
 */
async function runWaves(
  plan: TournamentDesign,
  design: StoredDesign,
  store: TournamentResults,
  runId: number,
  runPlan: (planned: TournamentDesign) => Promise<ConversationsResult>,
  tell: (line: string) => void,
): Promise<{ result: ConversationsResult; sequential: SequentialOutcome }> {
  const rule = design.sequential!;
  const watch = new SequentialWatch({ persuaders: plan.persuaders, persuadees: plan.persuadees, groups: groupsOf(plan) }, rule);
  const ordered = sequentialClaimOrder(plan.claims, plan.runSeed);
  const waves = sequentialWaves(ordered, rule.wave);
  const total = { finished: 0, failed: 0, skipped: 0, abandoned: 0 };
  let last: ConversationsResult = { status: 'completed', finished: 0, failed: 0, skipped: 0, abandoned: 0 };
  let settled = false;
  for (const [index, wave] of waves.entries()) {
    last = await runPlan({ ...plan, claims: wave });
    total.finished += last.finished;
    total.failed += last.failed;
    total.skipped += last.skipped;
    total.abandoned += last.abandoned;
    if (last.status === 'stopped') break;
    const byClaim = new Map<string, SequentialScore[]>();
    for (const score of store.claimScores(runId, wave)) {
      const key = claimKeyOf(score);
      const list = byClaim.get(key);
      if (list) list.push(score);
      else byClaim.set(key, [score]);
    }
    watch.addWave(wave.map((claim) => byClaim.get(claimKeyOf(claim)) ?? []));
    const states = watch.states();
    tell(
      `wave ${index + 1} of ${waves.length}: ${watch.claimsFed} of ${ordered.length} claims run; quantities settled ${states.filter((state) => state.settled).length} of ${states.length}`,
    );
    if (watch.allSettled()) {
      settled = true;
      break;
    }
  }
  const finishedAll = last.status === 'completed' && (settled || watch.claimsFed === ordered.length);
  const plannedConversations = countPlan(plan);
  const perClaim = ordered.length === 0 ? 0 : plannedConversations / ordered.length;
  const sequential: SequentialOutcome = {
    claimsRun: watch.claimsFed,
    claimsPlanned: ordered.length,
    stoppedBecause: !finishedAll ? 'not finished' : settled ? 'settled' : 'claims ran out',
    quantities: watch.states(),
    plannedConversations,
    conversationsNotStarted: Math.round(plannedConversations - perClaim * watch.claimsFed),
  };
  if (finishedAll) for (const line of sequentialEndText(sequential)) tell(line);
  const result: ConversationsResult = { ...last, ...total };
  return { result, sequential };
}

const interval = (state: QuantityState) => `[${state.lower.toFixed(3)}, ${state.upper.toFixed(3)}]`;

/** What a finished sequential run says at its end: what settled, what did not, and what it saved. */
function sequentialEndText(outcome: SequentialOutcome): string[] {
  const settled = outcome.quantities.filter((state) => state.settled);
  const open = outcome.quantities.filter((state) => !state.settled);
  const why = outcome.stoppedBecause === 'settled' ? 'stopped: every quantity is settled' : 'the claims ran out before every quantity settled';
  const saved = outcome.plannedConversations === 0 ? 0 : (100 * outcome.conversationsNotStarted) / outcome.plannedConversations;
  return [
    `${why} after ${outcome.claimsRun} of ${outcome.claimsPlanned} claims; ${outcome.conversationsNotStarted} of ${outcome.plannedConversations} planned conversations not started (${saved.toFixed(1)}% of the full design's conversations and their calls saved)`,
    ...(settled.length > 0 ? [`settled (${settled.length}): ${settled.map((state) => `${state.key} ${interval(state)}`).join('; ')}`] : []),
    ...(open.length > 0 ? [`not settled (${open.length}): ${open.map((state) => `${state.key} ${interval(state)}`).join('; ')}`] : []),
    'these are anytime-valid intervals (docs/design/sequential.md); the report shows them and says the fixed-design intervals are not valid after a data-driven stop',
  ];
}

/** What the conversations of a tournament session are run in: the session, the run's work (agents, window) and what it counts. */
interface TournamentSession {
  readonly session: RunSession;
  readonly work: TournamentWork;
  readonly settings: RunSettings;
  readonly store: TournamentResults;
  readonly retryFailed: boolean;
  readonly forecast: CallForecast;
  readonly sessionUsage: RecordUsageTally;
}

function runPlannedConversations(
  { session, work, settings, store, retryFailed, forecast, sessionUsage }: TournamentSession,
  plan: TournamentDesign,
  design: StoredDesign,
): Promise<ConversationsResult> {
  const { registry, gate, meter, run } = session;
  const modelOf = (agent: string) => registry.modelFor(work.agents.agent(agent).model);
  return runConversations({
    plan: iteratePlan(plan),
    modelFor: modelOf,
    promptsFor: (agent) => work.agents.agent(agent).prompts,
    seedNamesFor: (agent) => work.agents.agent(agent).seedNames,
    sampling: design.sampling,
    concurrency: work.window,
    gate,
    abortSignal: session.signals.abort,
    ...(settings.maxFailures === undefined ? {} : { maxFailures: settings.maxFailures }),
    isDone: isHeldBy(store, run.id, retryFailed),
    onSkipped: (planned) => {
      meter.conversationsSkipped += 1;
      forecast.noteSkipped(planned);
    },
    onTurn: (planned, turn) => forecast.noteTurn(planned, turn),
    ...(design.probeDrift ? { probeDrift: true } : {}),
    onConversation: async (planned, outcome, stance, driftProbe) => {
      if (outcome.status !== 'partial') forecast.noteFinished(planned, outcome);
      const simulated = {
        persuader: modelOf(planned.spec.persuaderModel).simulated,
        persuadee: modelOf(planned.spec.persuadeeModel).simulated,
      };
      const record = toConversationRecord(run.name, planned.spec, outcome, simulated, stance, driftProbe);
      await store.saveConversation(run.id, record);
      sessionUsage.add(record);
      meter.conversationsDone += 1;
      if (record.status === 'failed') meter.conversationsFailed += 1;
    },
  });
}

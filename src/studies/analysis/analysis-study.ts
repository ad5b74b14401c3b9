import type { ConversationRecord } from '../../domain/conversation-record.js';
import { openStudySession, type StudyRunInput } from '../../runner/open-study-session.js';
import type { LeaseHolder } from '../../runner/run-lease.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, sessionFacts } from '../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import type { StudyRun } from '../run-config.js';
import type { AgentRoster } from '../tournament/agents.js';
import type { TournamentResults } from '../tournament/tournament-results.js';
import type { AnalysisDesign } from './analysis-design.js';
import { analysisEnding, describeSourceWriter, liveWriterOf } from './analysis-ending.js';
import type { AnalysisResults } from './analysis-results.js';
import {
  type AnalysisTask,
  analysisProgressUnit,
  conversationsToAnalyse,
  countAnalysisTasks,
  driftSamplingOf,
  planAnalysisTasks,
  probedPersuaders,
  variantsOf,
} from './analysis-work.js';
import { askRecordDriftProbe } from './drift-probe.js';
import { labelConversation } from './label-conversation.js';
import { labelTurn, type TurnTask } from './label-turn.js';

export interface RunAnalysisInput extends StudyRunInput {
  /** The store: runs and calls, the tournament's conversations, and where labels are kept. */
  readonly store: RunRecords & Pick<TournamentResults, 'conversations'> & { readonly analysis: AnalysisResults };
  readonly design: AnalysisDesign;
  /** The tournament run whose conversations are analysed. */
  readonly tournamentRun: StudyRun;
  /** Told of each label set or probe whose call failed after its retries (not stored; asked again on resume). */
  readonly onFailedCall?: (task: AnalysisTask, reason: string, detail: string) => void;
  /** Told of each turn stored without labels: no attempt gave a usable answer (`problem` says what was wrong with the last). */
  readonly onUnusable?: (task: TurnTask, attempts: number, problem: string) => void;
}

/** What a session of an analysis study did, beyond the session's own facts. */
export interface AnalysisOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  /** The conversations read (after --sample), and their turns. */
  readonly conversations: number;
  readonly turns: number;
  /** Each analysed conversation's persuader, by conversation id (for the summary's technique profiles). */
  readonly persuaders: ReadonlyMap<string, string>;
  /** Label sets (one per turn and judge) stored this session, usable or not. */
  readonly labelsStored: number;
  /** Label sets stored this session that hold no labels (every attempt unusable), per judge. */
  readonly unusable: ReadonlyMap<string, number>;
  /** Answers stored this session that held keys not asked for (read past, not asked again), per key. */
  readonly ignoredKeys: ReadonlyMap<string, number>;
  /** Calls that failed after their retries this session (not stored), by reason. */
  readonly failures: ReadonlyMap<string, number>;
  /** Label sets the study holds with labels (every session's): none means the study failed (`no-usable-label`). */
  readonly usableLabels: number;
  /** The process that was writing the tournament run when the study read it (the study ends interrupted: `source-running`). */
  readonly sourceWriter?: LeaseHolder;
  readonly ending: SessionEnding;
}

/** The completed conversations of a run, read whole before any work: the store is written while tasks run. */
export function completedConversations(store: Pick<TournamentResults, 'conversations'>, tournamentRun: RunInfo): ConversationRecord[] {
  return [...store.conversations(tournamentRun.id, 'completed')];
}

/** The models a study calls: its judges, and with --probe-drift the persuaders' models it asks. */
function analysisModels(design: AnalysisDesign, persuaders: AgentRoster): string[] {
  if (!design.probeDrift) return [...design.judges];
  return [...new Set([...design.judges, ...persuaders.models])];
}

/** An analysis study's work, set up once before its session: what it reads, whom it asks, and how. */
interface AnalysisWork {
  /** The conversations read (after --sample). */
  readonly conversations: readonly ConversationRecord[];
  readonly counts: ReturnType<typeof countAnalysisTasks>;
  /** The persuaders asked the drift probe, each resolved once (none without --probe-drift). */
  readonly persuaders: AgentRoster;
  /** The models the study calls: its judges and the persuaders' models. */
  readonly models: readonly string[];
  /** How a persuader is asked the drift probe (`driftSamplingOf`). */
  readonly driftSampling: AnalysisDesign['sampling'];
  /** The process writing the tournament run when the study read it. */
  readonly sourceWriter?: LeaseHolder;
}

/** Reads the conversations to analyse and resolves the persuaders it asks, once. */
function planAnalysisWork(input: RunAnalysisInput): AnalysisWork {
  const { store, design, tournamentRun } = input;
  // Looked at before and after the read: a writer at either moment may have left conversations out of it.
  const writerBefore = liveWriterOf(store, tournamentRun, input.world);
  const completed = completedConversations(store, tournamentRun);
  const sourceWriter = writerBefore ?? liveWriterOf(store, tournamentRun, input.world);
  // A resumed study is given its own seed (its run's), so it picks the same sample.
  const conversations = conversationsToAnalyse(completed, design.sample, input.seed);
  const persuaders = probedPersuaders(conversations, design, variantsOf(tournamentRun));
  return {
    conversations,
    counts: countAnalysisTasks(conversations, design),
    persuaders,
    models: analysisModels(design, persuaders),
    driftSampling: driftSamplingOf(tournamentRun, design),
    ...(sourceWriter ? { sourceWriter } : {}),
  };
}

/** Sets up the study's models, opens its run (new or resumed) and starts its session. */
function openAnalysisSession(input: RunAnalysisInput, work: AnalysisWork): Promise<RunSession> {
  const { design, tournamentRun } = input;
  const { counts } = work;
  const total = counts.labelTasks + counts.probes;
  return openStudySession(input.store, input, {
    run: {
      kind: 'analyze',
      prefix: 'analysis',
      nameFlag: '--study',
      noun: 'analysis study',
      howToStart: 'start one with pmiyc analyze --judge MODEL',
      create: (models) => ({
        config: {
          command: 'analyze',
          tournamentRun: tournamentRun.name,
          design,
          simulated: design.judges.filter((judge) => models.stored[judge]?.provider === 'sim'),
          models: models.stored,
        },
        plannedConversations: total,
      }),
    },
    models: work.models,
    unit: analysisProgressUnit(design),
    total,
    command: input.resume ? 'pmiyc analyze --resume' : 'pmiyc analyze',
    ...(design.batch ? { batch: true } : {}),
  });
}

/**
 * An analysis study (docs/design/techniques.md): each judge reads each turn of each
 * completed conversation of a tournament run (or of a seeded sample of them) and labels it with the
 * taxonomy's techniques and unethical strategies, refusals and role breaks; with `probeDrift`, each
 * conversation's persuader is asked where it stands after it. One session of the study's own run
 * (lease, call cache, gate, budget, progress); every answer is stored as it arrives, so a resumed
 * study asks only for what is missing, and another study with the same judges and seed replays it.
 */
export async function runAnalysisStudy(input: RunAnalysisInput): Promise<AnalysisOutcome> {
  const { store, tournamentRun } = input;
  const work = planAnalysisWork(input);
  const { conversations, counts, sourceWriter } = work;
  const session = await openAnalysisSession(input, work);
  const { run } = session;
  if (sourceWriter) input.world.tell(describeSourceWriter(tournamentRun.name, sourceWriter, conversations.length));
  const tallies: LabelTallies = { unusable: new Map(), ignoredKeys: new Map(), failures: new Map(), stored: { labels: 0 } };
  let result: TasksResult;
  let ending: SessionEnding | undefined;
  let usableLabels = 0;
  try {
    result = await runAnalysisTasks({ input, session, work, tallies });
    usableLabels = store.analysis.countUsableLabels(run.id);
    const ended = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
    ending = analysisEnding(ended, { plannedLabels: counts.labels, usableLabels, ...(sourceWriter ? { sourceWriter } : {}) });
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  const { unusable, ignoredKeys, failures, stored } = tallies;
  return {
    run,
    result,
    conversations: conversations.length,
    turns: counts.turns,
    persuaders: new Map(conversations.map((record) => [record.conversationId, record.persuader])),
    labelsStored: stored.labels,
    unusable,
    ignoredKeys,
    failures,
    usableLabels,
    ...(sourceWriter ? { sourceWriter } : {}),
    ending,
    ...sessionFacts(session),
  };
}

/** Every task of the study not stored yet, through the shared scheduler, each stored as its answer arrives. */
function runAnalysisTasks(step: AnalysisStep): Promise<TasksResult> {
  const { input, session, work } = step;
  return runTasks<AnalysisTask>({
    tasks: planAnalysisTasks(work.conversations, input.design),
    concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
    gate: session.gate,
    abortSignal: session.signals.abort,
    isDone: (task) => isAnalysisTaskStored(input.store.analysis, session.run.id, task),
    onSkipped: () => {
      session.meter.conversationsSkipped += 1;
    },
    run: (task) => (task.kind === 'drift' ? probeOne(step, task) : task.kind === 'labels' ? labelOne(step, task) : labelConversationOne(step, task)),
  });
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/**
 * Whether a study holds a task's answer already (a resumed study skips it): a turn's labels, a
 * conversation's (every one of its turns, for that judge), or a drift probe.
 */
export function isAnalysisTaskStored(analysis: Pick<AnalysisResults, 'hasLabels' | 'hasProbe'>, studyRunId: number, task: AnalysisTask): boolean {
  const { conversationId } = task.record;
  if (task.kind === 'drift') return analysis.hasProbe(studyRunId, conversationId);
  if (task.kind === 'labels') return analysis.hasLabels(studyRunId, { conversationId, turn: task.turn, judge: task.judge });
  return task.record.turns.every((turn) => analysis.hasLabels(studyRunId, { conversationId, turn: turn.index, judge: task.judge }));
}

/** What a session counts of its label sets, beyond what it stores. */
interface LabelTallies {
  readonly unusable: Map<string, number>;
  readonly ignoredKeys: Map<string, number>;
  readonly failures: Map<string, number>;
  readonly stored: { labels: number };
}

/** What each task of a session is run with: the study's input, its session, its work set up once, and its tallies. */
interface AnalysisStep {
  readonly input: RunAnalysisInput;
  readonly session: RunSession;
  readonly work: AnalysisWork;
  readonly tallies: LabelTallies;
}

/** Counts a task whose call failed after its retries (not stored: a resumed study asks it again) and tells of it. */
function failedCall(step: AnalysisStep, task: AnalysisTask, failed: { readonly reason: string; readonly detail: string }): 'failed' {
  step.session.meter.conversationsFailed += 1;
  bump(step.tallies.failures, failed.reason);
  step.input.onFailedCall?.(task, failed.reason, failed.detail);
  return 'failed';
}

/** Asks one judge for one turn's labels and stores them; a failed call is counted and reported, not stored. */
async function labelOne(step: AnalysisStep, task: Extract<AnalysisTask, { kind: 'labels' }>): Promise<'done' | 'failed'> {
  const { input, session } = step;
  const { unusable, ignoredKeys, stored } = step.tallies;
  const { design } = input;
  const outcome = await labelTurn(session.registry.modelFor(task.judge), task, design.taxonomy, design.sampling, session.run.seed, session.signals.abort);
  session.meter.conversationsDone += 1;
  if (outcome.status === 'failed') return failedCall(step, task, outcome);
  const turn = task.record.turns.find((item) => item.index === task.turn);
  input.store.analysis.saveLabels(session.run.id, {
    conversationId: task.record.conversationId,
    turn: task.turn,
    judge: task.judge,
    role: turn?.role ?? 'persuader',
    labels: outcome.labels,
    problem: outcome.problem,
    attempts: outcome.attempts,
    raw: outcome.raw,
    callHash: outcome.callHash,
  });
  stored.labels += 1;
  for (const key of outcome.ignoredKeys) bump(ignoredKeys, key);
  if (outcome.labels === null) {
    session.meter.conversationsFailed += 1;
    bump(unusable, task.judge);
    input.onUnusable?.(task, outcome.attempts, outcome.problem ?? 'no usable answer');
  }
  return 'done';
}

/**
 * Asks one judge for the labels of every turn of a conversation and stores them all in one
 * transaction (a kill leaves the conversation wholly asked or not at all); a failed call is counted
 * and reported, not stored. A conversation with a turn left without labels counts once as failed in
 * the progress line; each such turn is counted and told.
 */
async function labelConversationOne(step: AnalysisStep, task: Extract<AnalysisTask, { kind: 'conversation-labels' }>): Promise<'done' | 'failed'> {
  const { input, session } = step;
  const { unusable, ignoredKeys, stored } = step.tallies;
  const { taxonomy, sampling } = input.design;
  const outcome = await labelConversation(session.registry.modelFor(task.judge), task, taxonomy, sampling, session.run.seed, session.signals.abort);
  session.meter.conversationsDone += 1;
  if (outcome.status === 'failed') return failedCall(step, task, outcome);
  const { conversationId } = task.record;
  input.store.analysis.saveConversationLabels(
    session.run.id,
    outcome.turns.map(({ ignoredKeys: _keys, ...turn }) => ({ conversationId, judge: task.judge, ...turn })),
  );
  stored.labels += outcome.turns.length;
  for (const key of outcome.ignoredKeys) bump(ignoredKeys, key);
  for (const turn of outcome.turns) for (const key of turn.ignoredKeys) bump(ignoredKeys, key);
  const unread = outcome.turns.filter((turn) => turn.labels === null);
  if (unread.length > 0) session.meter.conversationsFailed += 1;
  for (const turn of unread) {
    bump(unusable, task.judge);
    input.onUnusable?.({ judge: task.judge, record: task.record, turn: turn.turn }, turn.attempts, turn.problem ?? 'no usable answer');
  }
  return 'done';
}

/** Asks a conversation's persuader the drift probe and stores its answer. */
async function probeOne(step: AnalysisStep, task: Extract<AnalysisTask, { kind: 'drift' }>): Promise<'done' | 'failed'> {
  const { input, session, work } = step;
  const { record } = task;
  const persuader = work.persuaders.agent(record.persuader);
  const outcome = await askRecordDriftProbe(
    session.registry.modelFor(persuader.model),
    record,
    persuader.prompts,
    work.driftSampling,
    session.run.seed,
    session.signals.abort,
  );
  session.meter.conversationsDone += 1;
  if (outcome.status === 'failed') return failedCall(step, task, outcome);
  input.store.analysis.saveProbe(session.run.id, {
    conversationId: record.conversationId,
    model: record.persuader,
    score: outcome.score,
    attempts: outcome.attempts,
    raw: outcome.raw,
    callHash: outcome.callHash,
  });
  return 'done';
}

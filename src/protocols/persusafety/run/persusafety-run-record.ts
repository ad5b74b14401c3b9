import type { PersusafetyConversationOutcome, PersusafetyTurn } from '../conversation/persusafety-outcome.js';
import type { PersusafetyConversationPlan, PersusafetyModelNames } from '../conversation/persusafety-plan.js';
import { persusafetyPersuadeeSystemPrompt, persusafetyPersuaderSystemPrompt } from '../conversation/persusafety-prompts.js';
import type { PersusafetyMessage, PersusafetyRecord } from '../persusafety-record.js';

/**
 * The record a run stores of one finished conversation, in the shape an import stores (persusafety-record.ts):
 * the scene with pmiyc's task probe, the persuadee's system prompt and every message, the decisions by turn, the
 * run's own judge's scores (`published: false`), and what only a run has (`played`).
 */

type Completed = Extract<PersusafetyConversationOutcome, { status: 'completed' }>;

/** The messages as an import keeps them: the persuadee's instructions, then the persuader and the persuadee by turns (a withheld message as its provider left it). */
function messagesOf(plan: PersusafetyConversationPlan, turns: readonly PersusafetyTurn[]): PersusafetyMessage[] {
  return [
    { role: 'system', text: persusafetyPersuadeeSystemPrompt(plan) },
    ...turns.flatMap((turn): PersusafetyMessage[] => [
      { role: 'persuader', text: turn.persuader.message },
      ...(turn.reply === undefined ? [] : [{ role: 'persuadee' as const, text: turn.reply.raw }]),
    ]),
  ];
}

/** The decisions by turn (an undecided reply has none), and the last of them, the conversation's outcome. */
function decisionsOf(turns: readonly PersusafetyTurn[]): Pick<PersusafetyRecord, 'decisions' | 'finalDecision'> {
  const decisions = turns.flatMap((turn): PersusafetyRecord['decisions'] => {
    const decision = turn.reply?.decision;
    return decision === 'accept' ? [{ turn: turn.turn, decision: 'ACCEPT' }] : decision === 'reject' ? [{ turn: turn.turn, decision: 'REJECT' }] : [];
  });
  return { decisions, finalDecision: decisions.at(-1)?.decision ?? null };
}

function judgementOf(judge: string, outcome: Completed): PersusafetyRecord['judgement'] {
  const { judgement } = outcome;
  if (judgement.status === 'read') return { judge, published: false, status: 'read', scores: [...judgement.value] };
  if (judgement.status === 'unread') return { judge, published: false, status: 'unread', problem: judgement.problem, scores: [] };
  return { judge, published: false, status: 'not-asked', scores: [] };
}

/** Every call's attempts: the task probe, each turn's two calls, the judge's. */
function callsOf(outcome: Completed): NonNullable<PersusafetyRecord['played']>['calls'] {
  const { judgement } = outcome;
  return [
    { call: 'task-probe', turn: null, attempts: [...outcome.taskProbe.attempts] },
    ...outcome.turns.flatMap((turn) => [
      { call: 'persuader' as const, turn: turn.turn, attempts: [...turn.persuader.attempts] },
      ...(turn.reply === undefined ? [] : [{ call: 'persuadee' as const, turn: turn.turn, attempts: [...turn.reply.attempts] }]),
    ]),
    ...(judgement.status === 'not-asked' ? [] : [{ call: 'judge' as const, turn: null, attempts: [...judgement.attempts] }]),
  ];
}

/** The record of a completed conversation of `persuader` on the plan's scene. */
export function persusafetyRunRecordOf(plan: PersusafetyConversationPlan, names: PersusafetyModelNames, outcome: Completed): PersusafetyRecord {
  const { taskProbe } = outcome;
  return {
    persuader: names.persuader,
    study: plan.sceneSet,
    condition: plan.condition,
    profile: plan.profile,
    scene: { ...plan.scene, taskProbe: { reply: taskProbe.reply, flag: taskProbe.status === 'accepted' ? 1 : -1 } },
    messages: messagesOf(plan, outcome.turns),
    ...decisionsOf(outcome.turns),
    judgement: judgementOf(names.judge, outcome),
    played: {
      persuadee: names.persuadee,
      constraint: plan.constraint,
      repetition: plan.repetition,
      turns: plan.turns,
      stop: outcome.stop,
      taskProbe: taskProbe.status,
      persuaderPrompt: persusafetyPersuaderSystemPrompt(plan),
      calls: callsOf(outcome),
    },
  };
}

import { z } from 'zod';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import type { ChatMessage } from '../../../models/chat-model.js';
import type { ProtocolAnalysis, ProtocolJudgeAnswer, ProtocolJudgeItem } from '../../../studies/protocol-analysis/protocol-analysis.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import {
  PERSUSAFETY_JUDGE_ASK,
  type PersusafetyShownMessage,
  persusafetyJudgeRequest,
  persusafetyJudgeSystemPrompt,
} from '../conversation/persusafety-judge.js';
import { persusafetyPersuaderBrief, readPersusafetyPersuaderPrompt } from '../conversation/persusafety-prompts.js';
import { PERSUSAFETY_PROTOCOL } from '../persusafety-design.js';
import { PERSUSAFETY_RUN_DEFAULTS, PERSUSAFETY_SCORES, PERSUSAFETY_STRATEGIES, type PersusafetyStrategy } from '../persusafety-facts.js';
import { type PersusafetyRecord, type PersusafetyStrategyScore, readPersusafetyRecord } from '../persusafety-record.js';
import { persusafetySimulatedProtocol } from '../sim/persusafety-simulated.js';

/**
 * Another judge of a PersuSafety run's conversations (`pmiyc analyze --run <a PersuSafety run> --judge MODEL`;
 * docs/design/protocols.md, "Another judge of a protocol run"): each conversation with a persuader message is put
 * to the judge as the run's own judge is asked (persusafety-judge.ts: the same system prompt, the persuader's brief,
 * the hidden fact apart, the conversation, the 15 strategies as JSON), and its answer kept as a record of its own.
 */

/** What was shown to the persuader of a stored conversation, rebuilt: a run's from the prompt it sent; an import's from its scene. */
function briefOf(record: PersusafetyRecord): string[] {
  const sent = record.played === undefined ? undefined : readPersusafetyPersuaderPrompt(record.played.persuaderPrompt);
  // An import does not say what the persuader was shown of the profile beyond its name, nor any benefit or pressure.
  const profileDescription = sent?.profileDescription ?? `the ${record.profile} profile of PersuSafety's persuadees`;
  return persusafetyPersuaderBrief({
    scene: record.scene,
    constraint: record.played?.constraint ?? 'none',
    condition: record.condition,
    profileDescription,
  });
}

/** The conversation as the judge is shown it: the persuader's and persuadee's messages, a withheld last persuader message left out as the run's judge leaves it. */
function shownMessages(record: PersusafetyRecord): PersusafetyShownMessage[] {
  const spoken = record.messages.flatMap((message): PersusafetyShownMessage[] =>
    message.role === 'system' ? [] : [{ speaker: message.role, text: message.text }],
  );
  if (record.played?.stop !== 'persuader-withheld') return spoken;
  const last = spoken.findLastIndex((message) => message.speaker === 'persuader');
  return spoken.filter((_, index) => index !== last);
}

/** The judge's request of a stored conversation; undefined when it holds no persuader message to judge (a declined task). */
function persusafetyJudgeItemOf(itemKey: string, record: PersusafetyRecord): ProtocolJudgeItem | undefined {
  const shown = shownMessages(record);
  if (!shown.some((message) => message.speaker === 'persuader')) return undefined;
  const messages: ChatMessage[] = [
    { role: 'system', content: persusafetyJudgeSystemPrompt() },
    { role: 'user', content: persusafetyJudgeRequest(briefOf(record), record.scene.fact, shown) },
  ];
  return { itemKey, messages };
}

function judgeItems(run: StudyRun, records: Iterable<StoredProtocolRecord>): ProtocolJudgeItem[] {
  return [...records].flatMap((stored) => persusafetyJudgeItemOf(stored.itemKey, readPersusafetyRecord(run.name, stored)) ?? []);
}

const strategyScoreSchema = z.object({
  strategy: z.enum(PERSUSAFETY_STRATEGIES as [PersusafetyStrategy, ...PersusafetyStrategy[]]),
  score: z.union(PERSUSAFETY_SCORES.map((score) => z.literal(score))),
  rationale: z.string(),
});

/** What an analysis study keeps of one conversation: who judged, whether its answer was read, the 15 scores, every attempt. */
const labelRecordSchema = z.object({
  judge: z.string(),
  status: z.enum(['read', 'unread']),
  problem: z.string().optional(),
  scores: z.array(strategyScoreSchema),
  ignoredKeys: z.array(z.string()).optional(),
  attempts: z.array(z.unknown()),
});

export type PersusafetyLabelRecord = z.infer<typeof labelRecordSchema>;

function recordOf(judge: string, answer: ProtocolJudgeAnswer): PersusafetyLabelRecord {
  const attempts = [...answer.attempts];
  if (answer.status === 'unread') return { judge, status: 'unread', problem: answer.problem, scores: [], attempts };
  const scores = answer.value as readonly PersusafetyStrategyScore[];
  return { judge, status: 'read', scores: [...scores], ...(answer.ignoredKeys.length > 0 ? { ignoredKeys: [...answer.ignoredKeys] } : {}), attempts };
}

/** An analysis study's stored label record read back by its schema; one it refuses is named by study and item. */
export function readPersusafetyLabelRecord(studyName: string, stored: StoredProtocolRecord): PersusafetyLabelRecord {
  const parsed = labelRecordSchema.safeParse(stored.record);
  if (parsed.success) return parsed.data;
  throw new DatasetError(
    { file: `study ${studyName}, item ${stored.itemKey}` },
    `is not a PersuSafety judge's label record (${parsed.error.issues[0]?.message ?? 'unknown'}): was the store written by another pmiyc?`,
    { fileIsSubject: true },
  );
}

/** PersuSafety's side of `pmiyc analyze` on its runs (studies/protocol-analysis/protocol-analysis.ts). */
export const persusafetyAnalysis: ProtocolAnalysis = {
  protocol: PERSUSAFETY_PROTOCOL,
  labels: 'the 15 strategies of each conversation',
  unit: 'conversations',
  judgeItems,
  ask: PERSUSAFETY_JUDGE_ASK,
  sampling: { temperature: PERSUSAFETY_RUN_DEFAULTS.judgeTemperature, maxOutputTokens: PERSUSAFETY_RUN_DEFAULTS.judgeMaxOutputTokens },
  answerTokens: 450,
  recordOf,
  simulatedProtocol: persusafetySimulatedProtocol([]),
};

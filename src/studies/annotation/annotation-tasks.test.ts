import { describe, expect, it } from 'vitest';
import { type HandConversation, handRecord } from '../../../test/support/hand-records.js';
import { AGREEMENT_LABELS } from '../../domain/agreement-score.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { hashString } from '../../domain/random.js';
import { sampleForAnnotation, type TaskSelection, toCandidate } from './annotation-sample.js';
import { buildTaskFile, parseTaskFile, turnsToLabel } from './annotation-tasks.js';

const MODELS = ['model-alpha', 'model-beta'];
const SUBJECTIVE = ['c1', 'c2', 'c3', 'c4'];
const MISINFORMATION = ['m1', 'm2', 'm3'];

/**
 * Replies as a real model writes them: the raw text carries the ranking label, the message does
 * not. Ids are hashes, as the engine makes them (hand records spell the models out in theirs).
 */
function withRawReplies(record: ConversationRecord): ConversationRecord {
  return {
    ...record,
    conversationId: `c${hashString(record.conversationId).toString(36)}`,
    turns: record.turns.map((turn) => {
      const raw = `<message>${turn.message}</message>\n<support_ranking>${AGREEMENT_LABELS[turn.score]}</support_ranking> RAW-REPLY-${turn.index}`;
      return { ...turn, raw, attempts: turn.attempts.map((attempt) => ({ ...attempt, raw })) };
    }),
  };
}

function tournament(): ConversationRecord[] {
  const records: ConversationRecord[] = [];
  for (const persuader of MODELS) {
    for (const persuadee of MODELS) {
      const make = (spec: Omit<HandConversation, 'persuader' | 'persuadee'>) =>
        records.push(withRawReplies(handRecord({ persuader, persuadee, message: (index) => `words of turn ${index}`, ...spec })));
      for (const claim of SUBJECTIVE) {
        make({ claim, turns: 7, persuadeeScores: [2, 3, 4], final: 4 });
        make({ claim, turns: 3, persuadeeScores: [2], final: 3 });
      }
      for (const claim of MISINFORMATION) make({ claim, domain: 'misinformation', turns: 7, persuadeeScores: [1, 5], final: 5 });
    }
  }
  return records;
}

const RECORDS = tournament();
const byId = new Map(RECORDS.map((record) => [record.conversationId, record]));
const select = (selection: Partial<TaskSelection>) =>
  sampleForAnnotation(RECORDS.map(toCandidate), { setting: 'multi', seed: 3, perPair: null, claimsPerDomain: null, ...selection });

describe('sampleForAnnotation', () => {
  it("by default takes the paper's design: the same 3 subjective and 2 misinformation claims for every pair, multi-turn", () => {
    const { conversationIds, pairs, notes } = select({});
    expect(pairs).toBe(4);
    expect(notes).toEqual([]);
    expect(conversationIds).toHaveLength(4 * 5);
    const chosen = conversationIds.map((id) => byId.get(id)!);
    expect(chosen.every((record) => record.setting === 'multi')).toBe(true);
    const claims = (domain: string) => new Set(chosen.filter((record) => record.domain === domain).map((record) => record.claim));
    expect(claims('subjective').size).toBe(3);
    expect(claims('misinformation').size).toBe(2);
    for (const claim of [...claims('subjective'), ...claims('misinformation')]) expect(chosen.filter((record) => record.claim === claim)).toHaveLength(4);
  });

  it('draws N conversations per pair with --sample, seeded and independent of input order', () => {
    const first = select({ perPair: 2 });
    expect(first.conversationIds).toHaveLength(8);
    const perPair = new Map<string, number>();
    for (const id of first.conversationIds)
      perPair.set(`${byId.get(id)!.persuader}/${byId.get(id)!.persuadee}`, (perPair.get(`${byId.get(id)!.persuader}/${byId.get(id)!.persuadee}`) ?? 0) + 1);
    expect([...perPair.values()]).toEqual([2, 2, 2, 2]);
    const reversed = sampleForAnnotation([...RECORDS].reverse().map(toCandidate), { setting: 'multi', seed: 3, perPair: 2, claimsPerDomain: null });
    expect(new Set(reversed.conversationIds)).toEqual(new Set(first.conversationIds));
    expect(new Set(select({ perPair: 2, seed: 4 }).conversationIds)).not.toEqual(new Set(first.conversationIds));
  });

  it('takes everything a pair has when it has fewer, and says so', () => {
    const result = select({ perPair: 50 });
    expect(result.conversationIds).toHaveLength(4 * 7);
    expect(result.notes[0]).toMatch(/4 of 4 pairs had fewer than 50/);
  });

  it('says when a domain has fewer claims than asked', () => {
    const result = select({ claimsPerDomain: { subjective: 1, misinformation: 9 } });
    expect(result.conversationIds).toHaveLength(4 * 4);
    expect(result.notes).toEqual(['only 3 misinformation claims have completed conversations (asked for 9)']);
  });
});

describe('buildTaskFile', () => {
  const selection: TaskSelection = { setting: 'multi', seed: 3, perPair: null, claimsPerDomain: { subjective: 3, misinformation: 2 } };
  const records = select(selection).conversationIds.map((id) => byId.get(id)!);
  const tasks = buildTaskFile({ run: 'run-1', createdAt: '2026-12-01T00:00:00.000Z', selection, records });
  const text = JSON.stringify(tasks);

  it('keeps every score, raw reply and model name out of the file', () => {
    expect(text).not.toContain('support_ranking');
    expect(text).not.toContain('RAW-REPLY');
    for (const model of MODELS) expect(text).not.toContain(model);
    for (const label of Object.values(AGREEMENT_LABELS)) expect(text).not.toContain(`>${label}<`);
    const keys = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) keys.add(key) && walk(inner);
    };
    walk(tasks.conversations);
    expect([...keys].sort()).toEqual(['claim', 'conversationId', 'domain', 'index', 'kind', 'message', 'question', 'role', 'toLabel', 'turns']);
  });

  it('marks every persuadee turn, and only those, to label', () => {
    const conversation = tasks.conversations[0]!;
    expect(conversation.turns.filter((turn) => turn.toLabel).map((turn) => turn.role)).toEqual(
      conversation.turns.filter((turn) => turn.role === 'persuadee').map(() => 'persuadee'),
    );
    // 3 subjective claims x 4 pairs x 4 persuadee turns + 2 misinformation items x 4 pairs x 3 (stopped early).
    expect(turnsToLabel(tasks.conversations)).toHaveLength(3 * 4 * 4 + 2 * 4 * 3);
    expect(tasks.annotationGuide).toMatch(/Completely Support/);
  });

  it('mixes pairs and claims in a seeded order, with a stable task set id', () => {
    const again = buildTaskFile({ run: 'run-1', createdAt: 'later', selection, records: [...records].reverse() });
    expect(again.conversations.map((conversation) => conversation.conversationId)).toEqual(
      tasks.conversations.map((conversation) => conversation.conversationId),
    );
    expect(again.taskSetId).toBe(tasks.taskSetId);
    expect(tasks.conversations.map((conversation) => conversation.conversationId)).not.toEqual(records.map((record) => record.conversationId));
  });

  it('reads back what it wrote, and refuses files that are not task files', () => {
    expect(parseTaskFile(JSON.stringify(tasks), 'tasks.json')).toEqual(tasks);
    expect(() => parseTaskFile('{', 'tasks.json')).toThrow(/tasks.json is not JSON/);
    expect(() => parseTaskFile(JSON.stringify({ ...tasks, format: 'other' }), 'tasks.json')).toThrow(/not a pmiyc annotation task file \(format/);
    const twice = { ...tasks, conversations: [tasks.conversations[0], tasks.conversations[0]] };
    expect(() => parseTaskFile(JSON.stringify(twice), 'tasks.json')).toThrow(/twice/);
  });
});

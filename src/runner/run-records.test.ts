import { describe, expect, it } from 'vitest';
import { failedItemsOf } from './run-records.js';

describe('failedItemsOf', () => {
  it("counts a tournament's stored failed conversations, and the planned items a completed study could not store", () => {
    expect(failedItemsOf({ kind: 'tournament', status: 'completed', failed: 29, studyItems: 0, plannedConversations: 324 })).toBe(29);
    expect(failedItemsOf({ kind: 'judge', status: 'completed', failed: 0, studyItems: 170, plannedConversations: 180 })).toBe(10);
    // A study still under way, or one that never said what it plans, has none to count.
    expect(failedItemsOf({ kind: 'consistency', status: 'interrupted', failed: 0, studyItems: 170, plannedConversations: 180 })).toBe(0);
    expect(failedItemsOf({ kind: 'consistency', status: 'completed', failed: 0, studyItems: 170 })).toBe(0);
  });
});

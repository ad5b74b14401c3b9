import type { AgreementScore } from '../../domain/agreement-score.js';

/*
 * A researcher's notes on a tournament run (issue 32): a note, a tag and a 1-5 grade on a conversation
 * or on one of its turns, written in `pmiyc view`. They sit in their own table next to the run; the
 * run's records are never touched. This file holds the types and the port the store implements.
 */

/** A grade on the five-point scale of the method (on a persuadee turn, read as its agreement: 1 Completely Oppose .. 5 Completely Support). */
export type NoteGrade = AgreementScore;

/** What a researcher writes: each part may be absent, but not all three. */
export interface NoteContent {
  /** One short label (trimmed, 1-40 characters), or null. */
  readonly tag: string | null;
  readonly grade: NoteGrade | null;
  /** Free text, '' for none. */
  readonly note: string;
}

/** Where a note is: a conversation of a run, and a turn of it (1-based, as the record's) or null for the whole conversation. */
export interface NoteTarget {
  readonly conversationId: string;
  readonly turn: number | null;
}

/** A stored note. Times are ISO 8601 (UTC). */
export interface ResearchNote extends NoteTarget, NoteContent {
  readonly id: number;
  /** The noted run's name. */
  readonly run: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Which notes, or which conversations by their notes: each field that is given holds for some note
 * of the conversation (not necessarily the same one), as the label filters do.
 */
export interface NoteFilter {
  readonly tag?: string;
  readonly grade?: NoteGrade;
  /** Conversations with a note of any kind (text, tag or grade), on the conversation or on a turn. */
  readonly hasNote?: true;
}

/** How many notes carry each tag. */
export interface TagCount {
  readonly tag: string;
  readonly notes: number;
}

/** Where research notes are kept (the SQLite store implements it; `pmiyc view` reads and writes them). */
export interface ResearchNotes {
  /** A run's notes, oldest first; only those of `conversationIds` when given, only those matching `filter`'s fields. */
  list(runId: number, filter?: NoteFilter & { readonly conversationIds?: readonly string[] }): ResearchNote[];
  /** Every note of every run, by run and then oldest first (`pmiyc export --notes`). */
  listAll(): ResearchNote[];
  /** The tags of a run's notes, most used first. */
  tags(runId: number): TagCount[];
  add(runId: number, target: NoteTarget, content: NoteContent, at: string): ResearchNote;
  /** Replaces a note's content; undefined when the run has no note with that id. */
  update(runId: number, id: number, content: NoteContent, at: string): ResearchNote | undefined;
  /** Deletes a note; false when the run has no note with that id. */
  remove(runId: number, id: number): boolean;
}

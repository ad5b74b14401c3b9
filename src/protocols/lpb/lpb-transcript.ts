import { DatasetError } from '../../domain/errors/dataset-error.js';
import { LPB_TRANSCRIPT_ROLES, type LpbSpeakerRole } from './lpb-facts.js';

/** One turn of a transcript: its number (from 1), who spoke, and what was said (Markdown). */
interface LpbTurn {
  readonly turn: number;
  readonly role: LpbSpeakerRole;
  readonly model: string;
  readonly text: string;
}

/** A cell's transcript: the proposition's full statement and the turns in order. */
export interface LpbTranscript {
  readonly proposition: string;
  readonly turns: readonly LpbTurn[];
}

/** The models a cell's transcript must name for each role. */
export interface LpbSpeakers {
  readonly persuader: string;
  readonly target: string;
}

const TURN_HEADING = /^## Turn (\d+)\s*$/;
const SPEAKER_LINE = /^- speaker_(role|model): `([^`]*)`\s*$/;

/** The index of the next line that is not blank, from `from`. */
function nextFilled(lines: readonly string[], from: number): number {
  let at = from;
  while (at < lines.length && lines[at]!.trim() === '') at += 1;
  return at;
}

/** A turn heading is a `## Turn N` line whose next filled line says the speaker's role: a model's own `## ` heading in its text is not one. */
function isTurnStart(lines: readonly string[], at: number): boolean {
  return TURN_HEADING.test(lines[at]!) && SPEAKER_LINE.test(lines[nextFilled(lines, at + 1)] ?? '');
}

const textOf = (lines: readonly string[]) => lines.join('\n').trim();

interface TurnHead {
  readonly role: LpbSpeakerRole;
  readonly model: string;
  readonly textStart: number;
}

/** The speaker lines after a turn's heading at `at`: role, then model; a problem names the line. */
function turnHead(file: string, lines: readonly string[], at: number, speakers: LpbSpeakers): TurnHead {
  const roleAt = nextFilled(lines, at + 1);
  const modelAt = nextFilled(lines, roleAt + 1);
  const role = SPEAKER_LINE.exec(lines[roleAt] ?? '');
  const model = SPEAKER_LINE.exec(lines[modelAt] ?? '');
  if (role?.[1] !== 'role') throw new DatasetError({ file, line: roleAt + 1 }, 'a turn must open with its speaker_role line');
  if (model?.[1] !== 'model') throw new DatasetError({ file, line: modelAt + 1 }, 'the speaker_role line must be followed by the speaker_model line');
  const known = LPB_TRANSCRIPT_ROLES.find((name) => name === role[2]);
  if (known === undefined) throw new DatasetError({ file, line: roleAt + 1 }, `speaker_role is "${role[2]}", not persuader or target`);
  if (model[2] !== speakers[known])
    throw new DatasetError(
      { file, line: modelAt + 1 },
      `speaker_model is "${model[2]}" but the cell's ${known} is ${speakers[known]}: is the transcript another cell's?`,
    );
  return { role: known, model: model[2]!, textStart: modelAt + 1 };
}

/**
 * Reads a transcript (`## Proposition`, then `## Turn N` sections, each with its speaker_role and speaker_model lines
 * and then its text), checking that the turns are numbered from 1 without a gap and name the cell's own models. A
 * problem is a DatasetError naming the file and line.
 */
export function parseLpbTranscript(file: string, text: string, speakers: LpbSpeakers): LpbTranscript {
  const lines = text.split(/\r?\n/);
  const propositionAt = lines.findIndex((line) => line.trim() === '## Proposition');
  if (propositionAt < 0)
    throw new DatasetError({ file, line: 1 }, 'has no "## Proposition" section: is it one of the benchmark\'s transcripts?', { fileIsSubject: true });
  const starts: number[] = [];
  for (let at = propositionAt + 1; at < lines.length; at++) if (isTurnStart(lines, at)) starts.push(at);
  if (starts.length === 0)
    throw new DatasetError({ file, line: propositionAt + 1 }, 'has a proposition but no "## Turn 1" with its speaker lines', { fileIsSubject: true });
  const turns = starts.map((at, index): LpbTurn => {
    const number = Number(TURN_HEADING.exec(lines[at]!)![1]);
    if (number !== index + 1) throw new DatasetError({ file, line: at + 1 }, `turn ${number} follows turn ${index}: a turn is missing or out of order`);
    const head = turnHead(file, lines, at, speakers);
    return { turn: number, role: head.role, model: head.model, text: textOf(lines.slice(head.textStart, starts[index + 1] ?? lines.length)) };
  });
  return { proposition: textOf(lines.slice(propositionAt + 1, starts[0])), turns };
}

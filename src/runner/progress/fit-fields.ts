/** One field of a progress line, with how much it matters: 0 is kept longest. */
export interface LineField {
  readonly text: string;
  readonly rank: number;
  /** What joins it to the field before it in its group: ", " unless given (" " for a remark in brackets). */
  readonly joiner?: string;
}

/** A progress line: a lead that always stays ("alpha:"), then groups of fields; groups are joined by " · ". */
export interface FieldLine {
  readonly lead?: string;
  readonly groups: ReadonlyArray<readonly LineField[]>;
}

const GROUP_JOINER = ' · ';

function render(line: FieldLine, kept: (field: LineField) => boolean): string {
  const groups = line.groups
    .map((group) =>
      group
        .filter(kept)
        .map((field, index) => (index === 0 ? field.text : `${field.joiner ?? ', '}${field.text}`))
        .join(''),
    )
    .filter((text) => text !== '');
  const body = groups.join(GROUP_JOINER);
  return line.lead === undefined ? body : `${line.lead} ${body}`.trimEnd();
}

/**
 * The line whole when it fits in `width` characters (or no width is known); otherwise without its
 * least important fields, dropped one rank at a time (the highest rank first; within a rank the
 * last first), and cut with "…" only when even its rank-0 fields do not fit. So at 80 columns the
 * spend and the last error stay while counts that matter less go.
 */
export function fitFields(line: FieldLine, width?: number): string {
  const whole = render(line, () => true);
  if (width === undefined || whole.length <= width) return whole;
  const dropOrder = line.groups
    .flat()
    .reverse()
    .sort((a, b) => b.rank - a.rank);
  const dropped = new Set<LineField>();
  for (const field of dropOrder) {
    if (field.rank === 0) break;
    dropped.add(field);
    const text = render(line, (candidate) => !dropped.has(candidate));
    if (text.length <= width) return text;
  }
  const essential = render(line, (candidate) => !dropped.has(candidate));
  return width > 1 ? `${essential.slice(0, width - 1)}…` : essential.slice(0, Math.max(0, width));
}

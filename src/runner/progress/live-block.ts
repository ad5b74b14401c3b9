const ESC = '\u001b';
/** Erase the whole line the cursor is on. */
const CLEAR_LINE = `${ESC}[2K`;
/** Erase from the cursor to the end of the screen: the rows a shorter block left, an echoed ^C. */
const CLEAR_BELOW = `${ESC}[J`;

/** The size of the terminal, read at every draw (it may be resized); undefined: not known. */
export interface TerminalSize {
  readonly columns?: number;
  readonly rows?: number;
}

/**
 * A block of lines kept at the bottom of a terminal and redrawn in place, with text printed above
 * it. The cursor always rests at the start of the row below the block, so a redraw goes up as many
 * rows as the block has, rewrites each row (erased first) and erases whatever is below: no row of
 * an earlier, longer block stays. Text printed meanwhile goes where the block was, the block below
 * it. Lines are cut to the terminal's width (a wrapped line would take two rows and the next
 * redraw would go up one too few) and the block to its height.
 */
export class LiveBlock {
  /** Rows of the block on the screen now. */
  private drawnRows = 0;
  /** Text printed without its newline yet, held until the line is complete. */
  private partial = '';

  constructor(
    private readonly write: (text: string) => void,
    private readonly size: () => TerminalSize = () => ({}),
  ) {}

  /** Draws `lines` in place of the block. */
  draw(lines: readonly string[]): void {
    this.write(`${this.backToTop()}${this.render(lines)}`);
  }

  /**
   * Prints `text` above the block and redraws the block (`lines`) below it. A line without its
   * newline yet is held until it has one (or the block closes): it would otherwise run into the block.
   */
  print(text: string, lines: readonly string[]): void {
    const combined = this.partial + text;
    const end = combined.lastIndexOf('\n');
    if (end < 0) {
      this.partial = combined;
      return;
    }
    this.partial = combined.slice(end + 1);
    const above = combined
      .slice(0, end)
      .split('\n')
      .map((line) => `${CLEAR_LINE}${line.replace(/\r$/, '')}\n`)
      .join('');
    this.write(`${this.backToTop()}${above}${this.render(lines)}`);
  }

  /** Draws the block a last time, leaves it on the screen and writes any held text after it. */
  close(lines: readonly string[]): void {
    this.draw(lines);
    if (this.partial !== '') this.write(this.partial);
    this.partial = '';
    this.drawnRows = 0;
  }

  private backToTop(): string {
    return this.drawnRows > 0 ? `\r${ESC}[${this.drawnRows}A` : '\r';
  }

  private render(lines: readonly string[]): string {
    const { columns, rows } = this.size();
    const fitting = rows !== undefined && rows > 1 && lines.length > rows - 1 ? lines.slice(0, rows - 1) : lines;
    const width = columns !== undefined && columns > 1 ? columns - 1 : undefined;
    this.drawnRows = fitting.length;
    return `${fitting.map((line) => `${CLEAR_LINE}${width !== undefined && line.length > width ? line.slice(0, width) : line}\n`).join('')}${CLEAR_BELOW}`;
  }
}

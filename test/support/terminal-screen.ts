/**
 * A small terminal emulator for tests of what a program draws: it keeps every row ever written
 * (no scrolling off, no height), a cursor, and understands exactly what pmiyc's progress display
 * may send: printable text, `\r`, `\n`, ESC[nA (up n rows), ESC[2K (erase the row) and ESC[J / ESC[0J
 * (erase from the cursor to the end). Any other escape sequence throws, so that a display that
 * starts sending something new fails its tests until the emulator (and a real terminal) is checked.
 * A terminal turns `\n` into a new row at column 0 (as a pty does with onlcr).
 */
export class TerminalScreen {
  private rows: string[] = [''];
  private row = 0;
  private column = 0;

  write(text: string): void {
    for (let index = 0; index < text.length; index++) {
      const character = text[index]!;
      if (character === '\u001b') {
        index = this.escape(text, index);
        continue;
      }
      if (character === '\r') this.column = 0;
      else if (character === '\n') {
        this.row += 1;
        this.column = 0;
        if (this.row === this.rows.length) this.rows.push('');
      } else if (character === '\u0007' || character === '\u0008') {
        throw new Error(`unexpected control character ${JSON.stringify(character)}`);
      } else {
        const line = this.rows[this.row]!.padEnd(this.column);
        this.rows[this.row] = line.slice(0, this.column) + character + line.slice(this.column + 1);
        this.column += 1;
      }
    }
  }

  /** Every row, without trailing spaces; the last empty rows (where the cursor waits) left out. */
  lines(): string[] {
    const lines = this.rows.map((line) => line.trimEnd());
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  /** Handles the escape sequence at `start`; returns the index of its last character. */
  private escape(text: string, start: number): number {
    const match = /^\[(\d*)([A-Za-z])/.exec(text.slice(start + 1));
    if (!match) throw new Error(`unsupported escape sequence at ${JSON.stringify(text.slice(start, start + 8))}`);
    const [body, parameter, command] = match;
    const sequence = `\u001b${body}`;
    if (command === 'A') this.row = Math.max(0, this.row - Number(parameter || '1'));
    else if (command === 'K' && parameter === '2') this.rows[this.row] = '';
    else if (command === 'J' && (parameter === '' || parameter === '0')) {
      this.rows[this.row] = this.rows[this.row]!.slice(0, this.column);
      this.rows.length = this.row + 1;
    } else throw new Error(`unsupported escape sequence ${JSON.stringify(sequence)}`);
    return start + sequence.length - 1;
  }
}

/**
 * Bad input from the user: a flag, a model name, a file. The CLI prints the message as one line
 * and exits with code 2. The message says what is wrong and what to do instead.
 */
export class InputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InputError';
  }
}

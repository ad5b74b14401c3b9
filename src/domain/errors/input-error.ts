import { PmiycError } from './pmiyc-error.js';

/**
 * Bad input from the user: a flag, a model name, a file. The CLI prints the message as one line
 * and exits with code 2. The message says what is wrong and what to do instead. Subclasses name
 * the kind of input and carry where it is: ConfigError, DatasetError, StoreError, RunInUseError.
 */
export class InputError extends PmiycError {
  readonly kind: 'input' | 'config' | 'dataset' | 'store' | 'run-in-use' = 'input';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InputError';
  }
}

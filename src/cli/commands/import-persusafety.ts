import { importPersusafety, type PersusafetyImportOptions } from '../../kit/import-persusafety.js';
import { persusafetyImportText } from '../../protocols/persusafety/import/persusafety-import-text.js';
import type { CliContext } from '../terminal.js';

/** `pmiyc import persusafety`: imports through the kit (kit/import-persusafety.ts) and says what it did. */
export async function importPersusafetyCommand(options: PersusafetyImportOptions, context: CliContext): Promise<number> {
  const result = await importPersusafety(options, context);
  context.stdout.write(persusafetyImportText(result, options));
  return 0;
}

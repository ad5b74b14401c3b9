import { importLpb, type LpbImportOptions } from '../../kit/import-lpb.js';
import { lpbImportText } from '../../protocols/lpb/import/lpb-import-text.js';
import type { CliContext } from '../terminal.js';

/** `pmiyc import llm-persuasion-benchmark`: imports through the kit (kit/import-lpb.ts) and says what it did. */
export async function importLpbCommand(options: LpbImportOptions, context: CliContext): Promise<number> {
  const result = await importLpb(options, context);
  context.stdout.write(lpbImportText(result, options));
  return 0;
}

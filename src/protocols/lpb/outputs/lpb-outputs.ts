import type { ProtocolOutputs } from '../../../studies/protocol-outputs.js';
import { LPB_PROTOCOL } from '../lpb-facts.js';
import { lpbConversationView } from './lpb-conversation-view.js';
import { lpbExportCsv, lpbExportLine } from './lpb-export.js';
import { lpbFigures } from './lpb-figures.js';
import { lpbRunPageTables } from './lpb-run-page.js';

/** What the LLM Persuasion Benchmark gives the readers of its runs (`report`, `export`, `show`, `view`): see studies/protocol-outputs.ts. */
export const lpbOutputs: ProtocolOutputs = {
  protocol: LPB_PROTOCOL,
  conversation: lpbConversationView,
  exportLine: lpbExportLine,
  exportCsv: lpbExportCsv,
  figures: lpbFigures,
  runPageTables: lpbRunPageTables,
};

import type { ProtocolOutputs } from '../../../studies/protocol-outputs.js';
import { SYCON_PROTOCOL } from '../run/sycon-design.js';
import { syconConversationView } from './sycon-conversation-view.js';
import { syconExportCsv, syconExportLine } from './sycon-export.js';
import { syconFigures } from './sycon-figures.js';

/** What SYCON-Bench gives the readers of its runs (`report`, `export`, `show`, `view`): see studies/protocol-outputs.ts. */
export const syconOutputs: ProtocolOutputs = {
  protocol: SYCON_PROTOCOL,
  conversation: syconConversationView,
  exportLine: syconExportLine,
  exportCsv: syconExportCsv,
  figures: syconFigures,
};

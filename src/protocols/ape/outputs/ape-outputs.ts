import type { ProtocolOutputs } from '../../../studies/protocol-outputs.js';
import { APE_PROTOCOL } from '../run/ape-design.js';
import { apeConversationView } from './ape-conversation-view.js';
import { apeExportCsv, apeExportLine } from './ape-export.js';
import { apeFigures } from './ape-figures.js';

/** What APE gives the readers of its runs (`report`, `export`, `show`, `view`): see studies/protocol-outputs.ts. */
export const apeOutputs: ProtocolOutputs = {
  protocol: APE_PROTOCOL,
  conversation: apeConversationView,
  exportLine: apeExportLine,
  exportCsv: apeExportCsv,
  figures: apeFigures,
};

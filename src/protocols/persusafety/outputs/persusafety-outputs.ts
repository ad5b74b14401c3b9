import type { ProtocolOutputs } from '../../../studies/protocol-outputs.js';
import { persusafetyJudgeAgreementFigures } from '../agreement/persusafety-agreement-figures.js';
import { PERSUSAFETY_PROTOCOL } from '../persusafety-design.js';
import { persusafetyConversationView } from './persusafety-conversation-view.js';
import { persusafetyExportCsv, persusafetyExportLine } from './persusafety-export.js';
import { persusafetyFigures } from './persusafety-figures.js';

/** What PersuSafety gives the readers of its runs (`report`, `export`, `show`, `view`): see studies/protocol-outputs.ts. */
export const persusafetyOutputs: ProtocolOutputs = {
  protocol: PERSUSAFETY_PROTOCOL,
  conversation: persusafetyConversationView,
  exportLine: persusafetyExportLine,
  exportCsv: persusafetyExportCsv,
  figures: persusafetyFigures,
  judgeAgreement: persusafetyJudgeAgreementFigures,
};

import type { Sampling } from '../../../studies/design-parts.js';
import type { ProtocolOutputs } from '../../../studies/protocol-outputs.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { persusafetyJudgeAgreementFigures } from '../agreement/persusafety-agreement-figures.js';
import { PERSUSAFETY_PROTOCOL, persusafetyDesignOf } from '../persusafety-design.js';
import { persusafetyConversationView } from './persusafety-conversation-view.js';
import { persusafetyExportCsv, persusafetyExportLine } from './persusafety-export.js';
import { persusafetyFigures } from './persusafety-figures.js';

/**
 * How a run pmiyc made sampled each model: the judge at its own sampling, the persuaders and the persuadee at the
 * agents' (a model that is both an agent and the judge is given the agents'). An import sampled nothing.
 */
function persusafetyModelSampling(run: StudyRun): Readonly<Record<string, Sampling>> {
  if (run.config.kind !== 'protocol') return {};
  const design = persusafetyDesignOf(run.name, run.config.design);
  if (design.kind !== 'run') return {};
  const agents = [...design.persuaders, design.persuadee].map((model) => [model, design.sampling] as const);
  return Object.fromEntries([[design.judge, design.judgeSampling], ...agents]);
}

/** What PersuSafety gives the readers of its runs (`report`, `export`, `show`, `view`): see studies/protocol-outputs.ts. */
export const persusafetyOutputs: ProtocolOutputs = {
  protocol: PERSUSAFETY_PROTOCOL,
  conversation: persusafetyConversationView,
  exportLine: persusafetyExportLine,
  exportCsv: persusafetyExportCsv,
  figures: persusafetyFigures,
  modelSampling: persusafetyModelSampling,
  judgeAgreement: persusafetyJudgeAgreementFigures,
};

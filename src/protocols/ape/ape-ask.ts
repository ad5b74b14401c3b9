import type { JudgeAsk } from '../../engine/ask-until-read.js';
import { APE_EVALUATION_FORMAT_NAME, APE_EVALUATION_SCHEMA, apeEvaluatorReminder } from './ape-prompts.js';
import { type ApeEvaluation, parseApeEvaluation } from './ape-replies.js';

/** The evaluator's part in asking: its schema, the reader of its answer and its reminder. */
export const EVALUATOR_ASK: JudgeAsk<ApeEvaluation> = {
  responseFormat: { name: APE_EVALUATION_FORMAT_NAME, schema: APE_EVALUATION_SCHEMA },
  read: (raw) => {
    const parsed = parseApeEvaluation(raw);
    return parsed.ok ? { ok: true, value: parsed.evaluation, ignoredKeys: parsed.ignoredKeys } : { ok: false, detail: parsed.detail };
  },
  reminder: apeEvaluatorReminder,
};

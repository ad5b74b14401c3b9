import { describeValue } from '../../domain/describe-value.js';
import type { JudgeAsk } from '../../engine/protocol-ask.js';
import { guardedRead } from '../../protocol/guarded-read.js';
import { readJsonObject } from '../../protocol/turn-labels-reply.js';
import { SYCON_LABELS, type SyconLabel } from './sycon-facts.js';
import { SYCON_JUDGEMENT_FORMAT_NAME, SYCON_JUDGEMENT_SCHEMA, syconJudgeReminder } from './sycon-prompts.js';

/** The judge's reading of one reply: its label against the stance, and why. */
export interface SyconJudged {
  readonly label: SyconLabel;
  readonly reasoning: string;
}

/** A judge's answer read: its label and the keys it held that were not asked for (read past), or what is wrong. */
export type ParsedSyconJudgement =
  | { readonly ok: true; readonly raw: string; readonly judged: SyconJudged; readonly ignoredKeys: readonly string[] }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format'; readonly detail: string };

const ASKED_KEYS = ['reasoning', 'label'];

/**
 * Reads a judge's answer: one JSON object (alone, or alone in a fenced block) with `label`, one of the three labels
 * (case and surrounding spaces forgiven); `reasoning` is kept when it is text. Keys not asked for are read past and
 * named. Refuses as data, never throws.
 */
export function parseSyconJudgement(raw: string): ParsedSyconJudgement {
  return guardedRead(raw, readJudgement);
}

function readJudgement(raw: string): ParsedSyconJudgement {
  const reading = readJsonObject(raw);
  if (!reading.ok) return { ok: false, raw, problem: 'format', detail: reading.detail };
  const answer = reading.value;
  const label = typeof answer.label === 'string' ? answer.label.trim().toLowerCase() : answer.label;
  if (!SYCON_LABELS.includes(label as SyconLabel))
    return {
      ok: false,
      raw,
      problem: 'format',
      detail: `label is ${describeValue(answer.label)}, not one of ${SYCON_LABELS.map((name) => `"${name}"`).join(', ')}`,
    };
  const reasoning = typeof answer.reasoning === 'string' ? answer.reasoning : '';
  const ignoredKeys = Object.keys(answer).filter((key) => !ASKED_KEYS.includes(key));
  return { ok: true, raw, judged: { label: label as SyconLabel, reasoning }, ignoredKeys };
}

/** The judge's part in asking (engine/protocol-ask.ts): its schema, the reader of its answer and its reminder. */
export const SYCON_JUDGE_ASK: JudgeAsk<SyconJudged> = {
  responseFormat: { name: SYCON_JUDGEMENT_FORMAT_NAME, schema: SYCON_JUDGEMENT_SCHEMA },
  read: (raw) => {
    const parsed = parseSyconJudgement(raw);
    return parsed.ok ? { ok: true, value: parsed.judged, ignoredKeys: parsed.ignoredKeys } : { ok: false, detail: parsed.detail };
  },
  reminder: syconJudgeReminder,
};

import { SYCON_LABELS, type SyconLabel } from '../sycon-facts.js';

/**
 * What a simulated model under test did on a turn, written into its reply as a mark (`[sycon: aligned]`,
 * `[sycon: neutral]`, `[sycon: against]`) that the simulated judge, and the model itself on its next turn, read back.
 * A reply without a mark (a real model's) is read as aligned: a simulated judge reads no meaning.
 */

export const syconSimMark = (label: SyconLabel): string => `[sycon: ${label}]`;

const MARK = new RegExp(`\\[sycon: (${SYCON_LABELS.join('|')})\\]`);

/** The label a reply's mark states, or undefined when it carries none. */
export function readSyconSimMark(reply: string): SyconLabel | undefined {
  return MARK.exec(reply)?.[1] as SyconLabel | undefined;
}

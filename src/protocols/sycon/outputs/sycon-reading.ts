import type { SyconPressureSource } from '../sycon-outcome.js';

/** How SYCON's readers (the conversation view, the export, the report section) say the same things the same way. */

/** Who wrote a push-back: the pressure agent's model, or what stands for the benchmark's and pmiyc's fixed ones. */
export function pushBackAuthor(source: SyconPressureSource, persuader: string | undefined): string {
  if (source === 'agent') return persuader ?? 'the pressure agent';
  return source === 'benchmark' ? "SYCON-Bench's push-back" : "pmiyc's fixed push-back";
}

export const SETTING_WORDS = { debate: 'debate', 'false-presupposition': 'false presupposition' } as const;

import { z } from 'zod';

/**
 * What a people study tells and asks its participants, from the experiment file (YAML): the texts in
 * Markdown (shown as text: no HTML is ever rendered from them), the shortest message a participant may
 * send, how long a turn may take, and when the follow-up rating opens (none without it).
 */
export const experimentSchema = z.strictObject({
  title: z.string().min(1).max(200),
  consent: z.string().min(1),
  instructions: z.string().min(1),
  debrief: z.string().min(1),
  minMessageChars: z.number().int().min(1).max(2000),
  turnTimeLimitMinutes: z
    .number()
    .positive()
    .max(24 * 60),
  followUpAfterHours: z.number().positive().optional(),
});

export type ExperimentText = z.infer<typeof experimentSchema>;

import { z } from 'zod';

/** What a people study keeps with its run (`config.people`), so that a restart serves the same study. */
export const storedPeopleSchema = z.looseObject({
  role: z.enum(['persuadee', 'persuader']),
  opponent: z.string(),
  compare: z.array(z.string()),
  turns: z.number().int(),
  text: z.looseObject({}),
  openLink: z.object({ tokenHash: z.string(), capacity: z.number().int() }).optional(),
});

export type StoredPeople = z.infer<typeof storedPeopleSchema>;

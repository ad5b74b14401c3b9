import { describe, expect, it } from 'vitest';
import { formatTaggedReply, parseTaggedReply } from './tagged-reply.js';

type Expected = { message: string; score: number } | { problem: 'format' | 'refusal' };

const cases: Array<[name: string, raw: string, expected: Expected]> = [
  ['canonical', '<message>Hello there.</message>\n<support_ranking>Support</support_ranking>', { message: 'Hello there.', score: 4 }],
  ['both tags on one line', '<message>Fine.</message> <support_ranking>Neutral</support_ranking>', { message: 'Fine.', score: 3 }],
  ['missing closing message tag', '<message>I disagree strongly\n<support_ranking>Oppose</support_ranking>', { message: 'I disagree strongly', score: 2 }],
  ['missing closing ranking tag', '<message>Okay.</message>\n<support_ranking> Neutral', { message: 'Okay.', score: 3 }],
  ['missing closing ranking tag, text after', '<message>Okay.</message>\n<support_ranking>Oppose\n\nThanks for listening!', { message: 'Okay.', score: 2 }],
  ['Completely Oppose is 1, never Oppose', '<message>No.</message><support_ranking>Completely Oppose</support_ranking>', { message: 'No.', score: 1 }],
  ['Completely Support is 5, never Support', '<message>Yes!</message><support_ranking>Completely Support</support_ranking>', { message: 'Yes!', score: 5 }],
  ['lower case label', '<message>m</message><support_ranking>completely support</support_ranking>', { message: 'm', score: 5 }],
  ['upper case tags and label', '<MESSAGE>m</MESSAGE><SUPPORT_RANKING>OPPOSE</SUPPORT_RANKING>', { message: 'm', score: 2 }],
  ['markdown bold label', '<message>m</message><support_ranking>**Support**</support_ranking>', { message: 'm', score: 4 }],
  ['markdown italic label with period', '<message>m</message><support_ranking>_Neutral_.</support_ranking>', { message: 'm', score: 3 }],
  ['trailing period', '<message>m</message><support_ranking>Oppose.</support_ranking>', { message: 'm', score: 2 }],
  ['a bare digit', '<message>m</message><support_ranking>4</support_ranking>', { message: 'm', score: 4 }],
  ['digit out of five', '<message>m</message><support_ranking>2/5</support_ranking>', { message: 'm', score: 2 }],
  ['label with agreeing digit', '<message>m</message><support_ranking>Support (4)</support_ranking>', { message: 'm', score: 4 }],
  ['digit then label', '<message>m</message><support_ranking>1 - Completely Oppose</support_ranking>', { message: 'm', score: 1 }],
  ['label and digit disagree', '<message>m</message><support_ranking>Support (5)</support_ranking>', { problem: 'format' }],
  ['digit off the scale', '<message>m</message><support_ranking>7</support_ranking>', { problem: 'format' }],
  ['zero', '<message>m</message><support_ranking>0</support_ranking>', { problem: 'format' }],
  [
    'prose before the tags',
    'Sure! Here is my answer.\n\n<message>It is a fair point.</message>\n<support_ranking>Neutral</support_ranking>',
    { message: 'It is a fair point.', score: 3 },
  ],
  ['prose after the tags', '<message>m</message>\n<support_ranking>Oppose</support_ranking>\nLet me know if you want more.', { message: 'm', score: 2 }],
  [
    'extra whitespace inside tags',
    '<message>\n\n   spaced out   \n</message>\n<support_ranking>   Completely   Oppose   </support_ranking>',
    { message: 'spaced out', score: 1 },
  ],
  ['whitespace inside the tag names', '< message >m</ message >< support_ranking >Support</ support_ranking >', { message: 'm', score: 4 }],
  [
    'message containing the word support',
    '<message>I cannot support this; I oppose it and stay neutral on the rest.</message><support_ranking>Oppose</support_ranking>',
    { message: 'I cannot support this; I oppose it and stay neutral on the rest.', score: 2 },
  ],
  [
    'message that quotes a ranking label',
    '<message>You say "Completely Support", but no.</message><support_ranking>Completely Oppose</support_ranking>',
    { message: 'You say "Completely Support", but no.', score: 1 },
  ],
  ['ranking before message', '<support_ranking>Support</support_ranking>\n<message>Order swapped.</message>', { message: 'Order swapped.', score: 4 }],
  ['a name before the label', '<message>m</message><support_ranking>Ranking: Neutral</support_ranking>', { message: 'm', score: 3 }],
  ['space instead of underscore in the tag', '<message>m</message><support ranking>Support</support ranking>', { message: 'm', score: 4 }],
  ['an empty reply', '', { problem: 'format' }],
  ['whitespace only', '  \n\t ', { problem: 'format' }],
  ['a refusal without tags', "I'm sorry, but I can't take part in this discussion.", { problem: 'refusal' }],
  ['a refusal phrased differently', 'As an AI, I must decline to argue this.', { problem: 'refusal' }],
  ['untagged prose that is not a refusal', 'I think the claim is mostly right. Support.', { problem: 'format' }],
  ['no ranking tag', '<message>I have thoughts.</message>', { problem: 'format' }],
  ['no message tag', 'Some words\n<support_ranking>Support</support_ranking>', { problem: 'format' }],
  ['empty message', '<message>   </message><support_ranking>Support</support_ranking>', { problem: 'format' }],
  ['empty ranking', '<message>m</message><support_ranking></support_ranking>', { problem: 'format' }],
  ['a label that is not one of the five', '<message>m</message><support_ranking>Strongly Support</support_ranking>', { problem: 'format' }],
  [
    'two labels with a slash (a prefix match would read Neutral)',
    '<message>m</message><support_ranking>Neutral / Oppose</support_ranking>',
    { problem: 'format' },
  ],
  ['an adjective that merely starts like a label', '<message>m</message><support_ranking>Supportive</support_ranking>', { problem: 'format' }],
  ['two labels', '<message>m</message><support_ranking>Neutral to Support</support_ranking>', { problem: 'format' }],
  ['a negated label', '<message>m</message><support_ranking>Support? Not really</support_ranking>', { problem: 'format' }],
  ['truncated inside the message', '<message>I was about to say somethi', { problem: 'format' }],
  [
    'other_agent_message is not a message tag',
    '<other_agent_message>echo</other_agent_message><support_ranking>Support</support_ranking>',
    { problem: 'format' },
  ],
  ['markdown code fence around the reply', '```\n<message>Fenced.</message>\n<support_ranking>Oppose</support_ranking>\n```', { message: 'Fenced.', score: 2 }],
  ['heading markdown in the ranking', '<message>m</message><support_ranking>### Neutral</support_ranking>', { message: 'm', score: 3 }],
];

describe('parseTaggedReply', () => {
  it('has a large table of tricky replies', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s', (_name, raw, expected) => {
    const parsed = parseTaggedReply(raw);
    expect(parsed.raw).toBe(raw);
    if ('problem' in expected) {
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.problem).toBe(expected.problem);
        expect(parsed.detail.length).toBeGreaterThan(0);
      }
    } else {
      expect(parsed).toMatchObject({ ok: true, message: expected.message, score: expected.score });
    }
  });

  it('reads back what formatTaggedReply writes, for every score', () => {
    for (const score of [1, 2, 3, 4, 5] as const) {
      const parsed = parseTaggedReply(formatTaggedReply('A message with support in it.', score));
      expect(parsed).toMatchObject({ ok: true, message: 'A message with support in it.', score });
    }
  });
});

import type { ConversationRecord } from '../../src/domain/conversation-record.js';
import { handRecord } from './hand-records.js';

/** Strings a model (or a hostile claims file or config alias) might write to attack a report. */
export const HOSTILE = {
  script: '<script>alert(1)</script>',
  image: '<img src=x onerror=alert(1)>',
  closeStyle: '</style><script>alert(2)</script>',
  attribute: '"><svg onload=alert(3)>',
  markdown: '[click](javascript:alert(4)) ![x](https://example.invalid/x.png) | cell |',
} as const;

/** A few conversations whose models, claims, questions and messages carry the hostile strings. */
export function hostileRecords(): ConversationRecord[] {
  const persuader = `sim/evil${HOSTILE.image}`;
  const message = (index: number) => (index % 2 === 0 ? `Listen: ${HOSTILE.script} ${HOSTILE.markdown}` : `Hmm ${HOSTILE.image} ${HOSTILE.attribute}`);
  return [
    handRecord({
      persuader,
      persuadee: 'sim/weak',
      claim: `c1 ${HOSTILE.closeStyle}`,
      turns: 5,
      persuadeeScores: [2, 3],
      final: 4,
      message,
      persuaderStance: 3,
    }),
    handRecord({
      persuader,
      persuadee: 'sim/weak',
      claim: `c2 ${HOSTILE.attribute}`,
      turns: 5,
      persuadeeScores: [4, 3],
      final: 2,
      message,
      persuaderStance: 4,
    }),
    handRecord({ persuader: 'sim/weak', persuadee: persuader, claim: 'c1 plain', turns: 5, persuadeeScores: [3, 3], final: 3, message, persuaderStance: 2 }),
    handRecord({
      persuader,
      persuadee: 'sim/weak',
      claim: `m1 ${HOSTILE.script}`,
      domain: 'misinformation',
      question: `Why? ${HOSTILE.attribute}`,
      turns: 3,
      persuadeeScores: [1],
      final: 2,
      message,
    }),
  ];
}

// The conversation record the viewer's benches store (bench/view.mjs, bench/search.mjs): made-up, simulated agents,
// one claim text per claim index; `failure` (a reason) fails it at turn 2, the persuader's; `earlyStopped` is by
// default whether a reply scored 5 (bench/view.mjs's turns stop there), else given.
import { normalizedChange } from '../../dist/metrics/normalized-change.js';

export function benchRecord(
  { persuader, persuadee, setting, turnsPlanned, domain, claimIndex },
  turns,
  { failure = null, earlyStopped = turns.some((turn) => turn.kind === 'reply' && turn.score === 5) } = {},
) {
  const failed = failure !== null;
  const initial = turns[0].score;
  const final = failed ? null : turns.at(-1).score;
  return {
    run: 'bench',
    conversationId: `c${persuader.slice(-1)}${persuadee.slice(-1)}${setting[0]}${domain[0]}${claimIndex}`,
    domain,
    setting,
    turnsPlanned,
    repetition: 0,
    runSeed: 1,
    claimIndex,
    claim: `Claim number ${claimIndex} about ${domain} matters ${claimIndex % 7 === 0 ? 'greatly' : 'somewhat'}`,
    question: null,
    origin: 'bench',
    license: 'MIT',
    persuader,
    persuadee,
    simulated: { persuader: true, persuadee: true },
    status: failed ? 'failed' : 'completed',
    failureReason: failure,
    failureDetail: failed ? `simulated ${failure}` : null,
    failedTurn: failed ? 2 : null,
    failedRole: failed ? 'persuader' : null,
    failedAttempts: [],
    earlyStopped: failed ? null : earlyStopped,
    initialScore: initial,
    finalScore: final,
    normalizedChange: final === null ? null : normalizedChange(initial, final),
    absoluteChange: final === null ? null : final - initial,
    persuaderStance: null,
    turns,
  };
}

/**
 * Human ratings in the format of the Anthropic persuasion data (`persuasion_data.csv`), made up for
 * tests that need many preference pairs: 3 claims x 12 arguments x 3 raters. Each rater's change of
 * opinion is a fixed function of claim, argument and rater, so every run builds the same pairs, with
 * ties, differences above 1, arguments that start alike and arguments of every length. Synthetic
 * (MIT, like pmiyc); the real format is checked on real rows in test/fixtures.
 */
const CLAIMS = ['Cities should plant more trees', 'Homework should be optional', 'Museums should be free to enter'];
const OPENERS = ['Because', 'Consider', 'Clearly', 'Data show', 'Every', 'Evidence'];
const LABELS = ['Strongly oppose', 'Oppose', 'Somewhat oppose', 'Neither oppose nor support', 'Somewhat support', 'Support', 'Strongly support'];
const ARGUMENTS_PER_CLAIM = 12;
const RATERS = 3;

const rating = (value: number) => `${value} - ${LABELS[value - 1]}`;
const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;

export function syntheticRatingsCsv(): string {
  const rows = [['worker_id', 'claim', 'argument', 'source', 'prompt_type', 'rating_initial', 'rating_final']];
  CLAIMS.forEach((claim, claimIndex) => {
    for (let argumentIndex = 0; argumentIndex < ARGUMENTS_PER_CLAIM; argumentIndex++) {
      const argument = `${OPENERS[(argumentIndex + claimIndex) % OPENERS.length]}: argument ${argumentIndex + 1} for "${claim}"${', and more'.repeat(argumentIndex % 4)}.\nA second paragraph.`;
      for (let rater = 0; rater < RATERS; rater++) {
        const initial = 2 + ((argumentIndex + rater) % 3);
        const change = ((argumentIndex * 7 + rater * 3 + claimIndex) % 5) - 1;
        const worker = `w${claimIndex}-${argumentIndex}-${rater}`;
        rows.push([
          worker,
          claim,
          argument,
          argumentIndex % 3 === 0 ? 'Human' : 'Claude 3 Opus',
          argumentIndex % 3 === 0 ? 'N/A' : 'Logical Reasoning',
          rating(initial),
          rating(initial + change),
        ]);
      }
    }
  });
  return rows.map((row) => row.map(quoted).join(',')).join('\r\n');
}

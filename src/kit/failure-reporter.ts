/** Failures described one by one, up to this many; the rest are counted by the closing text (a provider that is down would flood the terminal). */
const FAILURES_SHOWN = 5;

/** Tells one failure of a session, as a line without the `pmiyc: ` prefix. */
export type FailureReporter = (line: string) => void;

/**
 * A session's failures on `stream`: the first FAILURES_SHOWN each on a line of its own, the last
 * of them saying that further ones are counted, not shown; the rest left to the closing text's count.
 */
export function failureReporter(stream: { write(text: string): unknown }, shown = FAILURES_SHOWN): FailureReporter {
  let told = 0;
  return (line) => {
    told += 1;
    if (told <= shown) stream.write(`pmiyc: ${line}${told === shown ? ' (further failures are counted, not shown)' : ''}\n`);
  };
}

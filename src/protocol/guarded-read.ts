/** A reply that a reader threw on, refused as every unusable reply is: data, with its reason. */
export interface ThrownReading {
  readonly ok: false;
  readonly raw: string;
  readonly problem: 'format';
  readonly detail: string;
}

/**
 * Runs one reader of a model's reply and turns anything it throws into a format problem naming
 * the error. The readers are written to refuse as data; this is the promise made whole, for what
 * they did not foresee (a value built to break a walk over it, a bug): one reply that cannot be
 * read is the problem of the turn, answer or trial it belongs to, never of the study, which would
 * otherwise replay the stored reply and fail again on every `--resume`.
 */
export function guardedRead<Reading>(raw: string, read: (raw: string) => Reading): Reading | ThrownReading {
  try {
    return read(raw);
  } catch (error) {
    const said = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
    return { ok: false, raw, problem: 'format', detail: `pmiyc could not read the reply (${said.slice(0, 120)})` };
  }
}

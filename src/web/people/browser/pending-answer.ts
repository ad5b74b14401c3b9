/*
 * The participant's answer between Send and the server's acknowledgement. The server acknowledges
 * an answer only once it is stored for good (docs/design/people.md), so until then the page keeps it,
 * in memory and in the browser's storage (a reload or a closed tab loses nothing), says it is saving,
 * and sends it again, more slowly each time, until the server takes it or refuses it. Sending the
 * same answer twice is safe: the server answers a repeat as it answered the first.
 */

/** An answer the server has not acknowledged yet. */
export interface PendingAnswer {
  readonly turnIndex: number;
  readonly message: string;
  readonly score: number;
}

/** What one try to send an answer came to. */
export type SendOutcome<View> =
  | { readonly kind: 'saved'; readonly view: View }
  /** Refused for good (a different answer to the same turn, a message too short, a conversation that ended). */
  | { readonly kind: 'refused'; readonly status: number; readonly problem: string }
  /** Not taken this time (no connection, the server restarting or catching up): send it again later. */
  | { readonly kind: 'retry'; readonly retryAfterMs?: number };

/** What the page says about the answer: nothing, saving, saving while the server cannot be reached, saved. */
export type SaveState = 'idle' | 'saving' | 'retrying' | 'saved';

/** The part of `localStorage` used. */
export interface AnswerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface AnswerKeeperOptions<View> {
  /** Undefined where the browser allows no storage: the answer is then kept in memory only, and a reload may lose it. */
  readonly storage: AnswerStorage | undefined;
  /** One key per link: a link has at most one answer waiting. */
  readonly key: string;
  readonly send: (answer: PendingAnswer) => Promise<SendOutcome<View>>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly onState: (state: SaveState) => void;
  readonly onSaved: (view: View) => void;
  readonly onRefused: (answer: PendingAnswer, status: number, problem: string) => void;
}

/** Waits before the n-th resend (from 0): 1, 2, 4, 8 s, then 8 s each time; a server's Retry-After when longer. */
export function resendDelayMs(attempt: number, retryAfterMs = 0): number {
  return Math.max(retryAfterMs, 1000 * 2 ** Math.min(attempt, 3));
}

/** Keeps the participant's unacknowledged answer and sends it until the server takes it or refuses it. */
export class AnswerKeeper<View> {
  private kept: PendingAnswer | undefined;
  private delivering = false;

  constructor(private readonly options: AnswerKeeperOptions<View>) {
    this.kept = readKept(options.storage, options.key);
  }

  /** The answer waiting for the server's acknowledgement, if any (one kept from before a reload included). */
  get pending(): PendingAnswer | undefined {
    return this.kept;
  }

  /** Keeps `answer` (before anything is sent) and sends it. */
  async submit(answer: PendingAnswer): Promise<void> {
    this.kept = answer;
    try {
      this.options.storage?.setItem(this.options.key, JSON.stringify(answer));
    } catch {
      // A full or forbidden storage: the answer is still kept in memory and sent.
    }
    await this.deliver();
  }

  /** Sends the kept answer until it is acknowledged or refused; a second call while one runs does nothing. */
  async deliver(): Promise<void> {
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let attempt = 0; this.kept; attempt++) {
        const answer = this.kept;
        this.options.onState(attempt === 0 ? 'saving' : 'retrying');
        const outcome = await this.options.send(answer);
        if (outcome.kind === 'retry') {
          await this.options.sleep(resendDelayMs(attempt, outcome.retryAfterMs));
          continue;
        }
        this.forget();
        if (outcome.kind === 'saved') {
          this.options.onState('saved');
          this.options.onSaved(outcome.view);
        } else {
          this.options.onState('idle');
          this.options.onRefused(answer, outcome.status, outcome.problem);
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private forget(): void {
    this.kept = undefined;
    try {
      this.options.storage?.removeItem(this.options.key);
    } catch {
      // Nothing to do: a stale entry is sent again on the next load and answered as the first was.
    }
  }
}

function readKept(storage: AnswerStorage | undefined, key: string): PendingAnswer | undefined {
  try {
    const value: unknown = JSON.parse(storage?.getItem(key) ?? 'null');
    if (typeof value !== 'object' || value === null) return undefined;
    const { turnIndex, message, score } = value as Record<string, unknown>;
    return typeof turnIndex === 'number' && typeof message === 'string' && typeof score === 'number' ? { turnIndex, message, score } : undefined;
  } catch {
    return undefined;
  }
}

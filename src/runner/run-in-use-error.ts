import { InputError } from '../domain/errors/input-error.js';
import { describeHeldRun, type HeldRunContext, type LeaseHolder } from './run-lease.js';

/**
 * A second writer refused: another live process holds the run's lease (exit 2), or --take-over asked for a
 * run that a live process on this host holds. The message says who holds it since when, and how to wait,
 * stop it or take the run over.
 */
export class RunInUseError extends InputError {
  override readonly kind = 'run-in-use';
  readonly runName: string;
  /** The process that writes the run now. */
  readonly holder: LeaseHolder;

  /**
   * @param nowMs - the clock's reading, for the time since the holder's last heartbeat
   * @param context - whether the holder runs on this host (then it is named by pid, to stop) and --take-over was asked
   */
  constructor(runName: string, holder: LeaseHolder, nowMs: number, context?: HeldRunContext) {
    super(describeHeldRun(runName, holder, nowMs, context));
    this.name = 'RunInUseError';
    this.runName = runName;
    this.holder = holder;
  }
}

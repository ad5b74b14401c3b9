import { PmiycError } from '../domain/errors/pmiyc-error.js';

/** How the CLI advises the user after a failed write; each command says how to try again. */
export interface WriteAdvice {
  /** What to do once the cause is fixed: "run the report again". */
  readonly again: string;
  /** Where else the output could go: "another folder with --out". */
  readonly elsewhere: string;
}

/** What a system error code means for a write, and what to do about it. */
const REASONS: Record<string, { reason: string; remedy: (advice: WriteAdvice) => string }> = {
  ENOSPC: { reason: 'no space left on device', remedy: (advice) => `free some space and ${advice.again}` },
  EDQUOT: { reason: 'disk quota exceeded', remedy: (advice) => `free some space or raise the quota, and ${advice.again}` },
  EFBIG: { reason: 'file too large for this file system', remedy: (advice) => `write to ${advice.elsewhere}` },
  EACCES: { reason: 'permission denied', remedy: (advice) => `allow writing there or write to ${advice.elsewhere}` },
  EPERM: { reason: 'operation not permitted', remedy: (advice) => `allow writing there or write to ${advice.elsewhere}` },
  EROFS: { reason: 'read-only file system', remedy: (advice) => `write to ${advice.elsewhere}` },
  ENOTDIR: { reason: 'part of the path is a file, not a folder', remedy: (advice) => `rename that file or write to ${advice.elsewhere}` },
  EISDIR: { reason: 'a folder has that name', remedy: (advice) => `move the folder away or write to ${advice.elsewhere}` },
  EEXIST: { reason: 'a file is in the way of a folder', remedy: (advice) => `move the file away or write to ${advice.elsewhere}` },
  ENAMETOOLONG: { reason: 'the path is too long', remedy: (advice) => `write to ${advice.elsewhere}` },
  EIO: { reason: 'input/output error', remedy: (advice) => `check the disk and ${advice.again}` },
  EPIPE: { reason: 'the reader closed the pipe', remedy: (advice) => `keep the reader open and ${advice.again}` },
  EMFILE: { reason: 'too many open files', remedy: (advice) => `close other programs or raise the limit (ulimit -n), and ${advice.again}` },
};

/**
 * Output that could not be written: a report file, an export on standard output. The CLI prints
 * the message as one line, without a stack, and exits with code 1 (not 2: the input was fine,
 * the machine refused). The message names the target, the reason with its system code, and a
 * remedy: `cannot write pmiyc-report/a/index.html: no space left on device (ENOSPC); free some
 * space and run the report again`.
 */
export class OutputWriteError extends PmiycError {
  readonly kind = 'output';
  /** The file written, or "standard output". */
  readonly target: string;
  /** The system error code (`ENOSPC`), when there is one. */
  readonly code: string | undefined;

  constructor(target: string, code: string | undefined, reason: string, remedy: string, options?: { cause?: unknown }) {
    super(`cannot write ${target}: ${reason}${code ? ` (${code})` : ''}; ${remedy}`, options);
    this.name = 'OutputWriteError';
    this.target = target;
    this.code = code;
  }
}

/** The system error code of an error (`ENOSPC`), if it has one. */
export function systemErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a failed write into an `OutputWriteError` for `target`. An error without a system code is
 * a defect, not the machine refusing: it is returned unchanged, so that it still surfaces as one.
 */
export function toOutputWriteError(error: unknown, target: string, advice: WriteAdvice): unknown {
  if (error instanceof OutputWriteError) return error;
  const code = systemErrorCode(error);
  if (code === undefined) return error;
  const known = REASONS[code];
  const detail = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '').split(',')[0]! : code;
  return new OutputWriteError(target, code, known?.reason ?? detail, known ? known.remedy(advice) : `check ${target} and ${advice.again}`, { cause: error });
}

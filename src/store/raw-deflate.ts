import { constants, DeflateRaw, deflateRawSync } from 'node:zlib';

/** The parts of node's zlib stream used here: its native handle and the state array its writes fill in. */
interface ZlibInternals {
  readonly _handle?: {
    writeSync(flush: number, input: Buffer, inputOffset: number, inputLength: number, output: Buffer, outputOffset: number, outputLength: number): void;
    reset(): void;
  };
  /** [output bytes left, input bytes left] after a write. */
  readonly _writeState?: Uint32Array;
}

/** A deflate's output grows into pieces of this size at most (node's default chunk size). */
const OUTPUT_PIECE_BYTES = 16 * 1024;

let engine: (DeflateRaw & ZlibInternals) | undefined;
let engineUsable = true;
/** An error the stream reported (zlib reports through the stream's 'error' event). */
let engineError: unknown;

/**
 * `input` deflated raw at level 1: the same bytes as `deflateRawSync(input, { level: 1 })`, at a third of
 * its CPU for the texts the store keeps (1-2 KB). `deflateRawSync` makes a zlib stream for every call
 * (a stream object, ~256 KB of zlib state allocated, reported to V8 and freed); here one stream's
 * native handle is written to synchronously and reset after each text, as `deflateRawSync` itself writes
 * to it. Those are node's internals, unchanged for years but not public: when they are missing the function
 * falls back to `deflateRawSync`, and raw-deflate.test.ts checks the bytes against it on the Node that runs.
 */
export function deflateRawLevelOne(input: string | Buffer): Buffer {
  if (engineUsable) {
    engine ??= new DeflateRaw({ level: 1 }).on('error', (error) => (engineError = error)) as DeflateRaw & ZlibInternals;
    const handle = engine._handle;
    const state = engine._writeState;
    if (handle && typeof handle.writeSync === 'function' && typeof handle.reset === 'function' && state) {
      const deflated = deflateWith(handle, state, input);
      if (engineError === undefined) return deflated;
    }
    // Never expected: then every text goes the documented way, which reports its own errors.
    engineUsable = false;
  }
  return deflateRawSync(input, { level: 1 });
}

function deflateWith(handle: NonNullable<ZlibInternals['_handle']>, state: Uint32Array, input: string | Buffer): Buffer {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const pieces: Buffer[] = [];
  let output = Buffer.allocUnsafe(Math.min(OUTPUT_PIECE_BYTES, bytes.length + 64));
  let inputOffset = 0;
  let inputLeft = bytes.length;
  try {
    for (;;) {
      handle.writeSync(constants.Z_FINISH, bytes, inputOffset, inputLeft, output, 0, output.length);
      if (engineError !== undefined) break;
      const outputLeft = state[0]!;
      const inputLeftAfter = state[1]!;
      pieces.push(output.subarray(0, output.length - outputLeft));
      inputOffset += inputLeft - inputLeftAfter;
      inputLeft = inputLeftAfter;
      // Output space left over: the stream is finished.
      if (outputLeft !== 0) break;
      output = Buffer.allocUnsafe(OUTPUT_PIECE_BYTES);
    }
  } finally {
    handle.reset();
  }
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

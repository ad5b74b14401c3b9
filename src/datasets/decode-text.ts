import { DatasetError } from '../domain/errors/dataset-error.js';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where the first byte that is not valid UTF-8 sits: 1-based line, 1-based column in characters. */
interface BadByte {
  readonly byte: number;
  readonly line: number;
  readonly column: number;
}

/** How many bytes a sequence starting with `lead` has, and the range its second byte must fall in. */
function sequenceShape(lead: number): { length: number; secondMin: number; secondMax: number } | undefined {
  if (lead <= 0x7f) return { length: 1, secondMin: 0, secondMax: 0 };
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, secondMin: 0x80, secondMax: 0xbf };
  // E0 and F0 exclude overlong forms, ED excludes surrogates, F4 stops at U+10FFFF.
  if (lead === 0xe0) return { length: 3, secondMin: 0xa0, secondMax: 0xbf };
  if (lead === 0xed) return { length: 3, secondMin: 0x80, secondMax: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, secondMin: 0x80, secondMax: 0xbf };
  if (lead === 0xf0) return { length: 4, secondMin: 0x90, secondMax: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, secondMin: 0x80, secondMax: 0xbf };
  if (lead === 0xf4) return { length: 4, secondMin: 0x80, secondMax: 0x8f };
  return undefined;
}

function isWellFormedAt(bytes: Uint8Array, start: number, shape: { length: number; secondMin: number; secondMax: number }): boolean {
  if (start + shape.length > bytes.length) return false;
  for (let offset = 1; offset < shape.length; offset++) {
    const byte = bytes[start + offset] as number;
    const [min, max] = offset === 1 ? [shape.secondMin, shape.secondMax] : [0x80, 0xbf];
    if (byte < min || byte > max) return false;
  }
  return true;
}

/** Walks the bytes as UTF-8 (the WHATWG rules TextDecoder applies) to find the first bad one. */
function findBadByte(bytes: Uint8Array, start: number): BadByte | undefined {
  let line = 1;
  let column = 1;
  let position = start;
  while (position < bytes.length) {
    const lead = bytes[position] as number;
    const shape = sequenceShape(lead);
    if (shape === undefined || !isWellFormedAt(bytes, position, shape)) return { byte: lead, line, column };
    if (lead === 0x0a) {
      line += 1;
      column = 1;
    } else {
      column += 1;
    }
    position += shape.length;
  }
  return undefined;
}

function hasPrefix(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/**
 * The text of a user's file: its bytes decoded as UTF-8, a leading byte order mark dropped.
 * Invalid UTF-8 is refused rather than turned into U+FFFD, with the line and column (in
 * characters, both from 1) of the first bad byte:
 * `claims.csv:7: not valid UTF-8 (byte 0xff at column 3): save the file as UTF-8`.
 * A UTF-16 file (its byte order mark) is named as such.
 *
 * @param location - how the error names the file, usually its path as the user gave it
 * @throws DatasetError when the bytes are not UTF-8
 */
export function decodeText(location: string, bytes: Uint8Array): string {
  const start = hasPrefix(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  try {
    return strictDecoder.decode(start === 0 ? bytes : bytes.subarray(start));
  } catch (error) {
    if (hasPrefix(bytes, [0xff, 0xfe]) || hasPrefix(bytes, [0xfe, 0xff]))
      throw new DatasetError({ file: location, line: 1 }, 'the file is UTF-16, not UTF-8: save it as UTF-8', { cause: error });
    const bad = findBadByte(bytes, start);
    if (!bad) throw new DatasetError({ file: location, line: 1 }, 'not valid UTF-8: save the file as UTF-8', { cause: error });
    const byte = `0x${bad.byte.toString(16).padStart(2, '0')}`;
    throw new DatasetError(
      { file: location, line: bad.line, column: bad.column },
      `not valid UTF-8 (byte ${byte} at column ${bad.column}): save the file as UTF-8`,
      { cause: error },
    );
  }
}

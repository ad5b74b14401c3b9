/**
 * Loaded into a CLI child with `node --import` (test/output-identity-cli.test.ts, the people study):
 * `crypto.randomBytes` gives a fixed stream instead of random bytes, so that a people study's
 * participant ids and link tokens (src/web/server/link-tokens.ts) are the same in every run.
 *
 * Replacing the ids afterwards is not enough: a participant's id is in their agent name, which the
 * calls' seeds derive from (src/engine/call-seed.ts), so a simulated opponent's every reply depends on
 * it. Only `randomBytes` is replaced; the stream is SHA-256 of a counter, for tests only.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

let counter = 0;

function fixedBytes(size) {
  const bytes = Buffer.alloc(size);
  for (let filled = 0; filled < size; counter += 1) {
    filled += crypto.createHash('sha256').update(`pmiyc test bytes ${counter}`).digest().copy(bytes, filled);
  }
  return bytes;
}

crypto.randomBytes = (size, callback) => {
  const bytes = fixedBytes(size);
  if (callback === undefined) return bytes;
  process.nextTick(callback, null, bytes);
  return undefined;
};
// `import { randomBytes } from 'node:crypto'` in modules loaded later sees the replacement.
syncBuiltinESMExports();

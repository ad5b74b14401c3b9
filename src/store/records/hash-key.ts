/**
 * How a request hash is kept in the store: a sha256 given as 64 hex digits is stored as its 32 bytes
 * (half the size, in the calls table, its index and the turns), anything else as it is. Stores
 * written before keep hex text, so a lookup asks for both forms (`legacy`).
 */
export function hashKey(hash: string): { readonly key: string | Buffer; readonly legacy: string } {
  return { key: /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, 'hex') : hash, legacy: hash };
}

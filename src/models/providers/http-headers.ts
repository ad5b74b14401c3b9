// What pmiyc lets into a request's headers: one definition for the config's check and the HTTP transport's.

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** One line of printable ASCII: a line break would end the header, and other bytes have no agreed encoding. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/**
 * Set by the HTTP client for each request (the body's framing, the connection's management): given as
 * fixed headers, they would contradict it, and undici refuses them.
 */
const CLIENT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);

/** A header name HTTP allows (a token). */
export const isHeaderName = (name: string): boolean => HEADER_NAME.test(name);

/** A header value pmiyc sends: one line of printable ASCII. */
export const isHeaderValue = (value: string): boolean => HEADER_VALUE.test(value);

/** Content-Length, Transfer-Encoding, Connection, Keep-Alive, Upgrade or Expect, in any case. */
export const isClientHeader = (name: string): boolean => CLIENT_HEADERS.has(name.toLowerCase());

/**
 * Checks a request's fixed headers: a name HTTP does not allow, a value that is not one line of
 * printable ASCII, or a header the client sets itself is refused (RangeError, naming the header).
 */
export function checkRequestHeaders(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new RangeError(`the header name ${JSON.stringify(name)} is not one HTTP allows`);
    if (isClientHeader(name)) throw new RangeError(`the header ${name} is set by pmiyc for each request`);
    if (!isHeaderValue(value)) throw new RangeError(`the header ${name} has a line break or a character that is not printable ASCII in its value`);
  }
}

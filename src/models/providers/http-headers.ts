// What pmiyc lets into a request's headers: one definition for the config's check and the HTTP client's.

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** One line of printable ASCII: a line break would end the header, and other bytes have no agreed encoding. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** Set by the client from each request's body: given as fixed headers, they would contradict it. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);

/** A header name HTTP allows (a token). */
export const isHeaderName = (name: string): boolean => HEADER_NAME.test(name);

/** A header value pmiyc sends: one line of printable ASCII. */
export const isHeaderValue = (value: string): boolean => HEADER_VALUE.test(value);

/** Content-Length or Transfer-Encoding, in any case. */
export const isFramingHeader = (name: string): boolean => FRAMING_HEADERS.has(name.toLowerCase());

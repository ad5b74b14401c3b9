import { printableText } from '../../../domain/printable-text.js';
import { type ModelSecret, redactSecrets } from '../../model-secrets.js';

/**
 * A server's text (an error body, its message, what a library said of a reply) as a ModelCallError's
 * message may carry it: control characters and escape sequences removed, then the model's secrets
 * replaced, and only then cut to `maxCharacters`, so that no cut leaves part of a key behind.
 * Removing the control characters first also finds a key a server broke up with them.
 */
export function serverText(text: string, secrets: readonly ModelSecret[], maxCharacters?: number): string {
  const cleaned = redactSecrets(printableText(text), secrets);
  return maxCharacters === undefined ? cleaned : cleaned.slice(0, maxCharacters);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An answer's body as text for a message, or "<binary body, N bytes>" when it is not text: not
 * UTF-8 (a gzip body pmiyc did not ask for, an image) or holding NUL bytes.
 */
export function bodyText(body: Uint8Array): string {
  try {
    const text = UTF8.decode(body);
    if (!text.includes('\u0000')) return text;
  } catch {
    // Not UTF-8: said below.
  }
  return `<binary body, ${body.length} bytes>`;
}

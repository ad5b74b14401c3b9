/** A value a model's requests carry that no message, store, log or report may repeat, and what it is called instead. */
export interface ModelSecret {
  /** What the redacted text says in its place: the key's variable ("OPENAI_API_KEY") or "header x-api-key". */
  readonly name: string;
  readonly value: string;
}

/** What a model sends with every request besides the request itself. */
export interface ModelCredentials {
  /** The API key, read from the environment. */
  readonly apiKey?: string;
  /** The variable the key was read from, which names it when redacted. */
  readonly apiKeyEnv?: string;
  /** The config's extra headers: every value is treated as a secret (x-api-key, Authorization, ...). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Secrets shorter than this are not redacted. Replacing every "EMPTY", "none" or "test" (local
 * servers' placeholder keys) would mangle ordinary words of every message, and a value that short
 * is not a secret anyone could keep: it is guessed in moments.
 */
const MIN_REDACTED_LENGTH = 8;

/**
 * The secrets of a model: its API key and each configured header's value, and of a value with an
 * authentication scheme ("Bearer sk-...", "Basic dXNlcg==") also the credential alone, as servers
 * echo either. Values shorter than `MIN_REDACTED_LENGTH` are left out.
 */
export function secretsOf(credentials: ModelCredentials): ModelSecret[] {
  const secrets: ModelSecret[] = [];
  if (credentials.apiKey) secrets.push({ name: credentials.apiKeyEnv ?? 'the API key', value: credentials.apiKey });
  for (const [header, value] of Object.entries(credentials.headers ?? {})) {
    const name = `header ${header}`;
    secrets.push({ name, value });
    const credential = /^[A-Za-z][\w.+-]*\s+(\S.*)$/.exec(value.trim())?.[1];
    if (credential) secrets.push({ name, value: credential });
  }
  return secrets.filter((secret) => secret.value.length >= MIN_REDACTED_LENGTH);
}

/** The forms a secret may take in a server's text: as sent, escaped inside a JSON string, percent-encoded in a URL. */
function formsOf(value: string): string[] {
  return [...new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])];
}

/**
 * `text` with every occurrence of each secret (in any of its forms) replaced by
 * "[redacted: <name>]", longest secrets first so that a key inside a header value is not half
 * replaced. Applied to a server's text before anything is cut from it: a key cut in two by a
 * shortened message could no longer be found.
 */
export function redactSecrets(text: string, secrets: readonly ModelSecret[]): string {
  if (secrets.length === 0) return text;
  const forms = secrets
    .flatMap((secret) => formsOf(secret.value).map((value) => ({ name: secret.name, value })))
    .filter((form) => form.value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b.value.length - a.value.length);
  let redacted = text;
  for (const { name, value } of forms) if (redacted.includes(value)) redacted = redacted.split(value).join(`[redacted: ${name}]`);
  return redacted;
}

import { createHash } from 'node:crypto';
import type { GenerateReply, GenerateRequest } from './chat-model.js';

/**
 * The call cache port: stored replies by request hash. The SQLite store implements it (so that
 * every call's result is committed before it is used), and an in-memory one serves library
 * users and tests. Only successful replies are cached; failures are never replayed.
 */
export interface CallCache {
  lookup(hash: string): CachedReply | undefined;
  /** Stores a reply; a store that commits in batches resolves once the reply is committed. */
  save(call: StoredCall): void | Promise<void>;
  /** Records a call that failed after its retries (kept for the record, never replayed). */
  saveFailure?(failure: FailedCall): void;
}

/** A stored reply, and the earlier run that made it when it was not the caller's run. */
export interface CachedReply {
  readonly reply: GenerateReply;
  readonly earlierRun?: string;
}

export interface FailedCall {
  readonly hash: string;
  readonly modelIdentity: string;
  readonly reason: string;
  readonly statusCode?: number;
  readonly message: string;
  readonly latencyMs: number;
  readonly retries: number;
}

export interface StoredCall {
  readonly hash: string;
  /** What the model is (provider/model and output-affecting options), not the user's alias for it. */
  readonly modelIdentity: string;
  readonly request: CachedRequest;
  readonly reply: GenerateReply;
  readonly latencyMs: number;
  /** Retries the retry layer needed before this reply. */
  readonly retries: number;
}

/** The parts of a request that determine its reply. */
export interface CachedRequest {
  readonly messages: GenerateRequest['messages'];
  readonly temperature?: number;
  readonly maxOutputTokens: number;
  readonly seed: number;
  /**
   * The reply's JSON Schema, when the request has one: its name and the sha256 of its canonical
   * JSON (keys sorted), which stand for it in the hash and the store (the schema is a study's, kept
   * whole in its design).
   */
  readonly responseFormat?: { readonly name: string; readonly schemaSha256: string };
}

export function cachedRequestOf(request: GenerateRequest): CachedRequest {
  const format = request.responseFormat;
  return {
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    maxOutputTokens: request.maxOutputTokens,
    seed: request.seed,
    ...(format === undefined ? {} : { responseFormat: { name: format.name, schemaSha256: sha256(canonicalJson(format.schema)) } }),
  };
}

/**
 * The identity of a request: sha256 over the model identity and every field that determines the
 * reply (messages, temperature, output limit, seed, and the reply's schema when there is one).
 * Repetitions differ because their seeds do. A request without a schema hashes exactly as before
 * schemas existed, so every stored call keeps its hash.
 */
export function requestHash(modelIdentity: string, request: CachedRequest): string {
  const parts: unknown[] = [
    modelIdentity,
    request.temperature ?? null,
    request.maxOutputTokens,
    request.seed,
    request.messages.map((message) => [message.role, message.content]),
  ];
  const format = request.responseFormat;
  if (format !== undefined) parts.push([format.name, format.schemaSha256]);
  return sha256(JSON.stringify(parts));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with every object's keys in sorted order: the same schema built in another key order is the same schema. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A CallCache in memory, for library use and tests (grows with the number of distinct calls). */
export class MemoryCallCache implements CallCache {
  readonly calls = new Map<string, StoredCall>();

  lookup(hash: string): CachedReply | undefined {
    const call = this.calls.get(hash);
    return call ? { reply: call.reply } : undefined;
  }

  save(call: StoredCall): void {
    this.calls.set(call.hash, call);
  }
}

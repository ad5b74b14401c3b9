import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { closestName } from '../domain/closest-name.js';
import { ConfigError, type ConfigProblem } from '../domain/errors/config-error.js';
import { MAX_LISTED_PROBLEMS } from '../domain/errors/problem-list.js';
import { allowedKeysAt, configSchema, type PmiycConfig } from './config-schema.js';
import { readYamlValues } from './yaml-values.js';

/** A name under models: or variants: that is not one: what a name is (zod says only "Invalid key in record"), and one it could be. */
function describeKeyIssue(issue: z.core.$ZodIssueInvalidKey): string {
  const inner = issue.issues[0];
  if (inner === undefined) return issue.message;
  const renamed = String(issue.path.at(-1) ?? '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return inner.code === 'invalid_format' && renamed !== '' ? `${inner.message}: rename it, e.g. ${renamed}` : inner.message;
}

/** `unknown key "baseUrl" (did you mean baseURL?); allowed: provider, model, baseURL, ...` */
function describeUnknownKey(key: string, path: readonly string[]): string {
  const allowed = allowedKeysAt(path);
  const meant = allowed ? closestName(key, allowed) : undefined;
  return `unknown key "${key}"${meant ? ` (did you mean ${meant}?)` : ''}${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `is required (${issue.expected})`;
  if (issue.code === 'invalid_key') return describeKeyIssue(issue);
  return issue.message;
}

/** zod's issues as problems, one per unknown key (zod gives one issue for all of an object's). */
function problemsOf(issues: readonly z.core.$ZodIssue[]): Array<{ path: string[]; detail: string; at: string[] }> {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path, detail: describeUnknownKey(key, path), at: [...path, key] }));
    return [{ path, detail: describeIssue(issue), at: path }];
  });
}

type Located = { range?: [number, number, number]; items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> } | undefined;

/** The offset of the key at `path`, or of the deepest existing node on it, so errors point at a line. */
function offsetOf(document: Document, path: readonly string[]): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = (depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true)) as Located;
    const pair = parent?.items?.find((item) => item.key?.value === path[depth - 1]);
    if (pair?.key?.range) return pair.key.range[0];
  }
  return (document.contents as Located)?.range?.[0];
}

/** Where each config `parseConfig` returned came from: its file, and the line of a key in it. */
const configSources = new WeakMap<PmiycConfig, { readonly file: string; readonly lineOf: (path: readonly string[]) => number | undefined }>();

/** The 1-based line of the key at `path` (or of the deepest key on it that exists). */
function lineOfKey(document: Document, lineCounter: LineCounter, path: readonly string[]): number | undefined {
  const offset = offsetOf(document, path);
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

/**
 * A problem found in a loaded config after it was read (a protocol's templates, which `config/` cannot check:
 * docs/design/variants.md), named as a problem found on reading is: file, line and key. A config no file gave
 * is named "the config".
 */
export function configProblemAt(config: PmiycConfig, keyPath: readonly string[], detail: string): ConfigError {
  const source = configSources.get(config);
  const line = source?.lineOf(keyPath);
  return new ConfigError({ file: source?.file ?? 'the config', ...(line === undefined ? {} : { line }), keyPath: keyPath.join('.') }, detail);
}

/**
 * Reads a YAML config (text passed in) and checks it. Every error is a ConfigError that names the
 * file, the line when it can, the key and what is allowed: `pmiyc.yaml:7: models.alpha.temperature: ...`,
 * with every problem the check found (up to MAX_LISTED_PROBLEMS listed), an unknown key with the key
 * it most likely meant.
 */
export function parseConfig(fileName: string, text: string): PmiycConfig {
  const read = readYamlValues(text);
  if (read.status === 'invalid') throw new ConfigError({ file: fileName, line: read.line }, read.detail, read.cause === undefined ? {} : { cause: read.cause });
  const { document, lineCounter, values } = read;
  const parsed = configSchema.safeParse(values ?? {});
  if (parsed.success) {
    configSources.set(parsed.data, { file: fileName, lineOf: (path) => lineOfKey(document, lineCounter, path) });
    return parsed.data;
  }

  const problems: ConfigProblem[] = problemsOf(parsed.error.issues)
    .map(({ path, detail, at }) => {
      const line = lineOfKey(document, lineCounter, at);
      return {
        file: fileName,
        ...(line === undefined ? {} : { line }),
        ...(path.length > 0 ? { keyPath: path.join('.') } : {}),
        detail,
      };
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const [first, ...others] = problems;
  throw new ConfigError(first!, first!.detail, { others: others.slice(0, MAX_LISTED_PROBLEMS - 1), total: problems.length });
}

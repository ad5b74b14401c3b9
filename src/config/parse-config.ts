import type { Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../domain/errors/config-error.js';
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

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeysAt(issue.path.map(String));
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`;
  }
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `is required (${issue.expected})`;
  if (issue.code === 'invalid_key') return describeKeyIssue(issue);
  return issue.message;
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

/**
 * Reads a YAML config (text passed in) and checks it. Every error is a ConfigError that names the
 * file, the line when it can, the key and what is allowed: `pmiyc.yaml:7: models.alpha.temperature: ...`.
 */
export function parseConfig(fileName: string, text: string): PmiycConfig {
  const read = readYamlValues(text);
  if (read.status === 'invalid') throw new ConfigError({ file: fileName, line: read.line }, read.detail, read.cause === undefined ? {} : { cause: read.cause });
  const { document, lineCounter, values } = read;
  const parsed = configSchema.safeParse(values ?? {});
  if (parsed.success) return parsed.data;

  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String);
  const offset = offsetOf(document, issue.code === 'unrecognized_keys' ? [...path, issue.keys[0]!] : path);
  const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
  throw new ConfigError({ file: fileName, line, keyPath: path.length > 0 ? path.join('.') : undefined }, describeIssue(issue));
}

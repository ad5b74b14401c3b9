import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Unique paths in a test's temporary folder. */
export function pathMaker(folder: () => string): (name: string) => string {
  let counter = 0;
  return (name) => join(folder(), `${name}-${++counter}`);
}

/** A JSONL claims file of `count` plain claims (and any extra lines). */
export function writeClaims(path: string, count: number, extra: string[] = []): string {
  const lines = Array.from({ length: count }, (_, index) => JSON.stringify({ claim: `Test claim number ${index}` }));
  writeFileSync(path, [...lines, ...extra].join('\n'));
  return path;
}

/**
 * A config with two OpenAI-compatible models, `alpha` and `beta`, served at `baseURL` (a fake
 * server's `url`), without retries unless `extra` says otherwise; `extra` is added to both entries.
 */
export function writeChatConfig(path: string, baseURL: string, extra = ''): string {
  const settings = `${/maxRetries:/.test(extra) ? '' : ', maxRetries: 0'}${extra}`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${baseURL}/v1"${settings} }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${baseURL}/v1"${settings} }
`,
  );
  return path;
}

/** What a store says of a run, read directly (not through pmiyc). */
export function storedRun(store: string, run: string): { status: string; stopReason: string | null; config: Record<string, unknown>; calls: number } {
  const database = new Database(store, { readonly: true });
  try {
    const row = database.prepare('SELECT id, status, stop_reason, config FROM runs WHERE name = ?').get(run) as {
      id: number;
      status: string;
      stop_reason: string | null;
      config: string;
    };
    const calls = database.prepare('SELECT count(*) FROM calls WHERE run_id = ?').pluck().get(row.id) as number;
    return { status: row.status, stopReason: row.stop_reason, config: JSON.parse(row.config) as Record<string, unknown>, calls };
  } finally {
    database.close();
  }
}

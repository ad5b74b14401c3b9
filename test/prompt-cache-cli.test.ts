import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

let folder: string;
const fresh = pathMaker(() => folder);
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-prompt-cache-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const LABELS = ['Oppose', 'Neutral', 'Support'];
const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

interface Message {
  readonly role: string;
  readonly content: unknown;
}

/**
 * A loopback server that plays an OpenAI model (`/chat/completions`) and an Anthropic one
 * (`/messages`) with a prompt cache of its own, as the providers describe theirs: a request whose
 * leading messages are an earlier request's whole prompt reads those from the cache (OpenAI on its
 * own; Anthropic only where the earlier request marked `cache_control`, and it then stores the rest).
 */
async function startCachingServer(): Promise<FakeProviderServer> {
  const server = await FakeProviderServer.start();
  const cached = new Set<string>();
  const key = (model: string, messages: readonly Message[]) => `${model}\u0000${JSON.stringify(messages.map(({ role, content }) => [role, textOf(content)]))}`;
  const cachedPrefix = (model: string, messages: readonly Message[]) => {
    for (let length = messages.length - 1; length > 0; length--)
      if (cached.has(key(model, messages.slice(0, length)))) return tokensOf(messages.slice(0, length));
    return 0;
  };
  server.answerWith((request: RecordedRequest, index) => {
    const model = String(request.body['model']);
    const text = `<message>Reply ${index} from ${model}, which runs long enough to make the history grow.</message>\n<support_ranking>${LABELS[index % LABELS.length]}</support_ranking>`;
    if (request.path.endsWith('/messages')) {
      const system = request.body['system'];
      const messages = [{ role: 'system', content: system }, ...(request.body['messages'] as Message[])];
      const total = tokensOf(messages);
      const read = cachedPrefix(model, messages);
      const marked = JSON.stringify(request.body['messages']).includes('cache_control');
      if (marked) cached.add(key(model, messages));
      const written = marked ? total - read : 0;
      return {
        status: 200,
        body: {
          ...RESPONSE_SHAPES.anthropicMessage(text),
          usage: { input_tokens: total - read - written, output_tokens: 30, cache_creation_input_tokens: written, cache_read_input_tokens: read },
        },
      };
    }
    const messages = request.body['messages'] as Message[];
    const read = cachedPrefix(model, messages);
    cached.add(key(model, messages));
    const body = RESPONSE_SHAPES.openaiChat(text);
    return {
      status: 200,
      body: { ...body, usage: { ...body.usage, prompt_tokens: tokensOf(messages), completion_tokens: 30, prompt_tokens_details: { cached_tokens: read } } },
    };
  });
  return server;
}

/** A message's text whether it is a string or Anthropic's blocks (the cache marks sit on blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((block: { text?: string }) => block.text ?? '').join('');
  return '';
}

const PRICES = 'inputUsdPerMillion: 10, outputUsdPerMillion: 20, cachedInputUsdPerMillion: 1, cacheWriteUsdPerMillion: 12.5';
const ENV = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' };

describe('prompt caching through a run', () => {
  it("stores what each provider's cache served and stored, prices it, and shows it in the run's lines, pmiyc runs and the report", async () => {
    const server = await startCachingServer();
    try {
      const config = `${fresh('config')}.yaml`;
      writeFileSync(
        config,
        `models:
  gpt: { provider: openai, model: gpt-test, baseURL: "${server.url}/v1", maxRetries: 0, ${PRICES} }
  claude: { provider: anthropic, model: claude-test, baseURL: "${server.url}/v1", maxRetries: 0, ${PRICES} }
`,
      );
      const store = `${fresh('store')}.db`;
      const design = [
        '--config',
        config,
        '--models',
        'gpt,claude',
        '--claims',
        writeClaims(`${fresh('claims')}.jsonl`, 2),
        '--setting',
        'multi',
        '--turns',
        '7',
      ];

      const dryRun = await runCli(['run', ...design, '--dry-run'], { env: ENV });
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(dryRun.stdout).toMatch(/cached \(est\.\)/);
      expect(dryRun.stdout).toContain('Prompt caching (OpenAI and Azure on their own, Anthropic where pmiyc marks the prefix)');

      const run = await runCli(['run', ...design, '--store', store, '--run', 'cached'], { env: ENV });
      expect(run.code, run.stderr).toBe(0);

      // Anthropic requests mark the system prompt and the last message as cache breakpoints.
      const anthropic = server.requests.filter((request) => request.path.endsWith('/messages'));
      expect(anthropic.length).toBeGreaterThan(0);
      for (const request of anthropic) {
        expect(JSON.stringify(request.body['system'])).toContain('"cache_control":{"type":"ephemeral"}');
        const last = (request.body['messages'] as Message[]).at(-1)!;
        expect(JSON.stringify(last.content)).toContain('"cache_control":{"type":"ephemeral"}');
      }

      const database = new Database(store, { readonly: true });
      let byModel: Array<{ model: string; input: number; cached: number; written: number }>;
      try {
        byModel = database
          .prepare(
            `SELECT model, sum(input_tokens) AS input, sum(cached_input_tokens) AS cached, sum(cache_write_tokens) AS written
             FROM calls GROUP BY model ORDER BY model`,
          )
          .all() as typeof byModel;
        // Every call is priced from its own parts: plain input, cached input, written input, output.
        const calls = database.prepare('SELECT input_tokens, output_tokens, cached_input_tokens, cache_write_tokens, cost_usd FROM calls').all() as Array<
          Record<string, number>
        >;
        for (const call of calls) {
          const cached = call['cached_input_tokens'] ?? 0;
          const written = call['cache_write_tokens'] ?? 0;
          const expected = ((call['input_tokens']! - cached - written) * 10 + cached * 1 + written * 12.5 + call['output_tokens']! * 20) / 1e6;
          expect(call['cost_usd']).toBeCloseTo(expected, 12);
        }
      } finally {
        database.close();
      }
      const [claude, gpt] = byModel;
      expect(gpt!.cached).toBeGreaterThan(0);
      expect(gpt!.written ?? 0).toBe(0);
      expect(claude!.cached).toBeGreaterThan(0);
      expect(claude!.written).toBeGreaterThan(0);
      const cachedInAll = gpt!.cached + claude!.cached;

      // The run's closing lines, pmiyc runs and the report each say how much input the caches served.
      const count = (value: number) => value.toLocaleString('en-US');
      expect(run.stdout).toContain(`${count(cachedInAll)} cached`);
      const listed = await runCli(['runs', '--store', store]);
      expect(listed.stdout).toMatch(new RegExp(`^cached .*\\(${count(cachedInAll)} cached\\)`, 'm'));
      const out = fresh('report');
      const report = await runCli(['report', '--store', store, '--run', 'cached', '--out', out]);
      expect(report.code, report.stderr).toBe(0);
      // The report's usage table: per model and role, over the calls its conversations rest on.
      const usageRows = readFileSync(join(out, 'report.md'), 'utf8')
        .split('\n')
        .filter((line) => /^\| (gpt|claude) \| persuad/.test(line));
      for (const model of ['gpt', 'claude']) expect(usageRows.some((line) => line.startsWith(`| ${model} |`) && /; [\d,]+ cached/.test(line))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LabelBook, parseLabelsFile } from '../../studies/annotation/annotation-labels.js';
import type { AnnotationTaskFile } from '../../studies/annotation/annotation-tasks.js';
import { AnnotationServer } from './annotation-server.js';

const TASKS: AnnotationTaskFile = {
  format: 'pmiyc-annotation-tasks',
  version: 1,
  taskSetId: 'tset',
  run: 'run-1',
  createdAt: '2026-12-01T00:00:00.000Z',
  selection: { setting: 'multi', seed: 0, perPair: 1, claimsPerDomain: null },
  annotationGuide: 'guide',
  conversations: [
    {
      conversationId: 'ca',
      domain: 'subjective',
      claim: 'a claim',
      question: null,
      turns: [
        { index: 1, role: 'persuadee', kind: 'opening', message: 'no', toLabel: true },
        { index: 2, role: 'persuader', kind: 'argument', message: 'yes!', toLabel: false },
        { index: 3, role: 'persuadee', kind: 'final', message: 'maybe', toLabel: true },
      ],
    },
  ],
};

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw request, so that the Host header can be anything a browser elsewhere might send. */
function call(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, agent: false, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

let folder: string;
let server: AnnotationServer | undefined;
let labelsPath: string;

async function startServer(): Promise<{ server: AnnotationServer; token: string; book: LabelBook }> {
  const book = new LabelBook(TASKS, 'alice');
  server = await AnnotationServer.start({ book, labelsPath, port: 0 });
  const page = await call(server.port, '/');
  const token = /name="pmiyc-token" content="([^"]+)"/.exec(page.body)![1]!;
  return { server, token, book };
}

const post = (port: number, token: string, label: unknown, headers: Record<string, string> = {}) =>
  call(port, '/api/labels', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pmiyc-token': token, ...headers },
    body: JSON.stringify(label),
  });

describe('AnnotationServer', () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-annotation-server-'));
    labelsPath = join(folder, 'labels.jsonl');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(join(folder, 'labels.jsonl'), { force: true });
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the page with a nonce-only script policy, on 127.0.0.1', async () => {
    const { server: started } = await startServer();
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await call(started.port, '/');
    const policy = String(page.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)![1]!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.body).toContain(`<script nonce="${nonce}">`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const again = await call(started.port, '/');
    expect(String(again.headers['content-security-policy'])).not.toContain(nonce);
  });

  it('refuses requests addressed to another host name (DNS rebinding) and API calls without the token', async () => {
    const { server: started, token } = await startServer();
    expect((await call(started.port, '/', { headers: { host: `evil.example:${started.port}` } })).status).toBe(403);
    expect((await call(started.port, '/api/session')).status).toBe(403);
    expect((await call(started.port, '/api/session', { headers: { 'x-pmiyc-token': 'wrong' } })).status).toBe(403);
    const session = await call(started.port, '/api/session', { headers: { 'x-pmiyc-token': token } });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.body)).toMatchObject({ run: 'run-1', annotator: 'alice', taskSetId: 'tset' });
    expect((await call(started.port, '/api/labels', { headers: { host: `localhost:${started.port}`, 'x-pmiyc-token': token } })).status).toBe(200);
  });

  it('saves a label to the labels file before answering, atomically, and serves it back', async () => {
    const { server: started, token } = await startServer();
    const answer = await post(started.port, token, { conversationId: 'ca', turnIndex: 3, score: 4, labelledAt: '2026-12-01T10:00:00.000Z' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ labelled: 1, of: 2 });
    const saved = parseLabelsFile(readFileSync(labelsPath, 'utf8'), labelsPath);
    expect(saved.header.annotator).toBe('alice');
    expect(saved.labels.map((label) => [label.conversationId, label.turnIndex, label.score])).toEqual([['ca', 3, 4]]);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const listed = await call(started.port, '/api/labels', { headers: { 'x-pmiyc-token': token } });
    expect(JSON.parse(listed.body).labels).toEqual([{ conversationId: 'ca', turnIndex: 3, score: 4, labelledAt: '2026-12-01T10:00:00.000Z' }]);
    // An older re-send (another tab, a reload) changes nothing.
    await post(started.port, token, { conversationId: 'ca', turnIndex: 3, score: 1, labelledAt: '2026-12-01T09:00:00.000Z' });
    expect(parseLabelsFile(readFileSync(labelsPath, 'utf8'), labelsPath).labels[0]!.score).toBe(4);
  });

  it.each([
    [{ conversationId: 'ca', turnIndex: 2, score: 4, labelledAt: '2026-12-01T10:00:00.000Z' }, 400, /not a turn to label/],
    [{ conversationId: 'zz', turnIndex: 1, score: 4, labelledAt: '2026-12-01T10:00:00.000Z' }, 400, /not a turn to label/],
    [{ conversationId: 'ca', turnIndex: 1, score: 7, labelledAt: '2026-12-01T10:00:00.000Z' }, 400, /not a label: score/],
  ])('refuses the label %j', async (label, status, message) => {
    const { server: started, token } = await startServer();
    const answer = await post(started.port, token, label);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).error).toMatch(message);
  });

  it('refuses labels posted from another origin or not as JSON', async () => {
    const { server: started, token } = await startServer();
    const label = { conversationId: 'ca', turnIndex: 1, score: 2, labelledAt: '2026-12-01T10:00:00.000Z' };
    expect((await post(started.port, token, label, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(started.port, token, label, { 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (
        await call(started.port, '/api/labels', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-pmiyc-token': token },
          body: 'x'.repeat(20_000),
        })
      ).status,
    ).toBe(413);
  });

  it('says what to do when the port is taken', async () => {
    const { server: started } = await startServer();
    await expect(AnnotationServer.start({ book: new LabelBook(TASKS, 'bob'), labelsPath, port: started.port })).rejects.toThrow(
      /port \d+ on 127.0.0.1 is in use: pass --port/,
    );
  });

  it('stops listening when closed', async () => {
    const { server: started } = await startServer();
    const port = started.port;
    await started.close();
    server = undefined;
    await expect(call(port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});

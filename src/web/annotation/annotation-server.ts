import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeFileAtomically } from '../../io/write-file-atomically.js';
import { type LabelBook, type LabelUpdate, labelUpdateSchema } from '../../studies/annotation/annotation-labels.js';
import { newLinkToken } from '../server/link-tokens.js';
import { COMMON_HEADERS, isOwnHost, LocalHttpServer, pagePolicy, sendHtml, sendJson } from '../server/local-http.js';
import { loadPageScript } from '../server/page-script.js';
import type { LabelSaved, LabelsAnswer, SessionAnswer } from '../wire/annotation-answers.js';
import { SESSION_TOKEN_HEADER } from '../wire/page-session.js';
import { annotationPageHtml } from './annotation-page.js';

const MAX_BODY_BYTES = 16 * 1024;

export interface AnnotationServerOptions {
  /** The annotator's labels (already holding those saved earlier). */
  readonly book: LabelBook;
  /** Where labels are saved, rewritten atomically after every change. */
  readonly labelsPath: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Replaces the atomic file write (tests). */
  readonly writeLabels?: (path: string, text: string) => Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * The annotation page's local server (plain node:http). It listens on 127.0.0.1 only, answers only
 * requests addressed to 127.0.0.1 or localhost on its port (a page elsewhere cannot reach it
 * through DNS rebinding), and its API wants a per-session token that only its own page knows (a
 * page elsewhere cannot post labels). A label is answered once it is on disk.
 */
export class AnnotationServer {
  private readonly token = newLinkToken();
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly http: LocalHttpServer,
    private readonly options: AnnotationServerOptions,
    private readonly script: string,
  ) {}

  /** Starts listening; a port in use is a usage error that says what to do. */
  static async start(options: AnnotationServerOptions): Promise<AnnotationServer> {
    const script = await loadPageScript('annotation-app');
    let started: AnnotationServer | undefined;
    const http = await LocalHttpServer.start(options.port, (request, response) => started!.handle(request, response));
    started = new AnnotationServer(http, options, script);
    return started;
  }

  get port(): number {
    return this.http.port;
  }

  get url(): string {
    return this.http.url;
  }

  /** Stops accepting, drops open connections and waits for the last labels to be written. */
  async close(): Promise<void> {
    await this.http.close();
    await this.writing;
  }

  private hostAllowed(host: string | undefined): boolean {
    return isOwnHost(host, this.port);
  }

  private tokenValid(header: string | string[] | undefined): boolean {
    const given = Buffer.from(typeof header === 'string' ? header : '');
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.hostAllowed(request.headers.host)) return sendJson(response, 403, { error: `open the page at ${this.url}` });
    const path = new URL(request.url ?? '/', this.url).pathname;
    const method = request.method ?? 'GET';
    if (method === 'GET' && path === '/') return this.sendPage(response);
    if (method === 'GET' && path === '/favicon.ico') return void response.writeHead(204, COMMON_HEADERS).end();
    if (!path.startsWith('/api/')) return sendJson(response, 404, { error: 'not found' });
    if (!this.tokenValid(request.headers[SESSION_TOKEN_HEADER])) return sendJson(response, 403, { error: 'missing or wrong session token: reload the page' });
    const { book } = this.options;
    if (method === 'GET' && path === '/api/session') {
      const { tasks, annotator } = book;
      return sendJson(response, 200, {
        run: tasks.run,
        taskSetId: tasks.taskSetId,
        annotator,
        annotationGuide: tasks.annotationGuide,
        conversations: tasks.conversations,
      } satisfies SessionAnswer);
    }
    if (method === 'GET' && path === '/api/labels') return sendJson(response, 200, { labels: book.list() } satisfies LabelsAnswer);
    if (method === 'POST' && path === '/api/labels') return this.saveLabel(request, response);
    return sendJson(response, 405, { error: `${method} ${path} is not supported` });
  }

  private sendPage(response: ServerResponse): void {
    const nonce = randomBytes(18).toString('base64');
    sendHtml(response, annotationPageHtml(nonce, this.token, this.script), pagePolicy(nonce));
  }

  private async saveLabel(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const origin = request.headers.origin;
    if (origin !== undefined && !this.hostAllowed(origin.replace(/^http:\/\//, '')))
      return sendJson(response, 403, { error: 'labels come only from the annotation page' });
    if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) return sendJson(response, 415, { error: 'send JSON' });
    const body = await readBody(request);
    if (body === undefined) return sendJson(response, 413, { error: 'a label is a small JSON object' });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return sendJson(response, 400, { error: 'not JSON' });
    }
    const parsed = labelUpdateSchema.safeParse(json);
    if (!parsed.success) return sendJson(response, 400, { error: `not a label: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}` });
    const update = parsed.data as LabelUpdate;
    const { book } = this.options;
    if (!book.has(update.conversationId, update.turnIndex))
      return sendJson(response, 400, { error: `conversation ${update.conversationId} turn ${update.turnIndex} is not a turn to label` });
    if (book.apply(update)) await this.persist();
    sendJson(response, 200, { labelled: book.size, of: book.turnsToLabel } satisfies LabelSaved);
  }

  /** Writes the whole labels file, one write at a time, each with the book as it is then. */
  private persist(): Promise<void> {
    const write = this.options.writeLabels ?? ((path: string, text: string) => writeFileAtomically(path, text));
    const next = this.writing.then(() => write(this.options.labelsPath, this.options.book.toJsonl()));
    this.writing = next.catch(() => undefined);
    return next;
  }
}

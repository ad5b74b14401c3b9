import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LeaseWorld } from '../../runner/run-lease.js';
import type { ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import { COMMON_HEADERS, isOwnHost, LocalHttpServer, pagePolicy, sendHtml, sendJson } from '../server/local-http.js';
import { loadPageScript } from '../server/page-script.js';
import { SESSION_TOKEN_HEADER } from '../wire/page-session.js';
import type { AcrossReader } from './across-protocols-api.js';
import { NotesApi, type NotesWriting } from './notes-api.js';
import { type ApiAnswer, ViewApi, type ViewSource } from './view-api.js';
import { viewPageHtml } from './view-page.js';

export interface ViewServerOptions {
  readonly source: ViewSource;
  /** 0 picks a free port. */
  readonly port: number;
  /** This process, host and clock, to tell live runs from crashed ones. */
  readonly world: () => LeaseWorld;
  /** Writing notes (issue 32): the per-start token and the writer, or why notes cannot be written. Default: not writable. */
  readonly notes?: NotesWriting;
  /** The clock of a note's times; the real one unless given. */
  readonly now?: () => Date;
  /** Finds a protocol run's readers' side by its protocol (`protocolOutputsOf` of the kit); without it, protocol runs' items cannot be shown. */
  readonly protocolOutputs?: ProtocolOutputsLookup;
  /** The report's table across protocols of runs named (`/api/across`); without it, that page says to open the store with pmiyc view. */
  readonly acrossProtocols?: AcrossReader;
}

/** The largest body a note's write may have. */
const MAX_BODY_BYTES = 16 * 1024;

/** A note route: `/api/runs/:run/notes` and `/api/runs/:run/notes/:id`, decoded; undefined for any other path. */
function noteRoute(pathname: string): { run: string; id?: string } | undefined {
  const match = /^\/api\/runs\/([^/]+)\/notes(?:\/([^/]+))?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return { run: decodeURIComponent(match[1]!), ...(match[2] === undefined ? {} : { id: decodeURIComponent(match[2]) }) };
  } catch {
    return undefined;
  }
}

/** Whether a token sent equals the expected one, in constant time. */
function sameToken(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const [a, b] = [Buffer.from(sent), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request's JSON body, at most MAX_BODY_BYTES; an ApiAnswer when it cannot be read. */
async function jsonBody(request: IncomingMessage): Promise<{ readonly body: unknown } | ApiAnswer> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
    return { status: 415, body: { error: 'send the note as JSON (content-type: application/json)' } };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { status: 413, body: { error: `a note's request is at most ${MAX_BODY_BYTES / 1024} KB` } };
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { status: 400, body: { error: 'the body is not valid JSON' } };
  }
}

/**
 * The local server of `pmiyc view` (plain node:http): one page and a read-only JSON API over a store.
 * It listens on 127.0.0.1 only and answers only requests addressed to itself: a Host other than
 * 127.0.0.1 or localhost on its port (DNS rebinding), an Origin of another site, or a cross-site
 * fetch is refused, so no other page can read a run through the visitor's browser. Only GET is served,
 * except for research notes (issue 32): a note is added, edited or deleted only with the token this
 * viewer made when it started (`NotesWriting`), sent in the `x-pmiyc-token` header.
 */
export class ViewServer {
  private constructor(
    private readonly http: LocalHttpServer,
    private readonly api: ViewApi,
    private readonly notes: NotesApi,
    private readonly script: string,
  ) {}

  static async start(options: ViewServerOptions): Promise<ViewServer> {
    const api = new ViewApi(options.source, options.world, options.protocolOutputs, options.acrossProtocols);
    const notes = new NotesApi(options.source, options.notes ?? { why: 'this viewer was started without a write token' }, options.now ?? (() => new Date()));
    const script = await loadPageScript('view-app');
    let started: ViewServer | undefined;
    const http = await LocalHttpServer.start(options.port, (request, response) => started!.handle(request, response));
    started = new ViewServer(http, api, notes, script);
    return started;
  }

  get port(): number {
    return this.http.port;
  }

  get url(): string {
    return this.http.url;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private refusal(request: IncomingMessage): string | undefined {
    if (!isOwnHost(request.headers.host, this.port)) return `open the viewer at ${this.url}`;
    const origin = request.headers.origin;
    if (origin !== undefined && !(origin.startsWith('http://') && isOwnHost(origin.slice('http://'.length), this.port)))
      return 'requests from other sites are refused';
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'requests from other sites are refused';
    return undefined;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const answer = await this.route(request);
    if (answer === 'page') sendHtml(response, ...this.page());
    else if (answer === 'nothing') response.writeHead(204, COMMON_HEADERS).end();
    else sendJson(response, answer.status, answer.body);
  }

  /** What a request gets: the page, nothing (a favicon), or a JSON answer. */
  private async route(request: IncomingMessage): Promise<'page' | 'nothing' | ApiAnswer> {
    const refused = this.refusal(request);
    if (refused) return { status: 403, body: { error: refused } };
    const url = new URL(request.url ?? '/', this.url);
    const notes = noteRoute(url.pathname);
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (notes && !reading) return this.write(request, notes);
    if (!reading) return { status: 405, body: { error: 'pmiyc view changes nothing but notes: only GET is served here' } };
    if (notes)
      return notes.id === undefined ? this.notes.list(notes.run, url.searchParams) : { status: 404, body: { error: 'list the notes at /api/runs/RUN/notes' } };
    if (url.pathname === '/') return 'page';
    if (url.pathname === '/favicon.ico') return 'nothing';
    if (!url.pathname.startsWith('/api/')) return { status: 404, body: { error: 'not found: the viewer is at /' } };
    return this.api.answer(url.pathname, url.searchParams);
  }

  /** A note added (POST), edited (PUT) or deleted (DELETE): only with this viewer's token, once the origin checks have passed. */
  private async write(request: IncomingMessage, notes: { run: string; id?: string }): Promise<ApiAnswer> {
    const method = request.method;
    const allowed = notes.id === undefined ? method === 'POST' : method === 'PUT' || method === 'DELETE';
    if (!allowed)
      return { status: 405, body: { error: 'add a note with POST /api/runs/RUN/notes; edit or delete one with PUT or DELETE /api/runs/RUN/notes/ID' } };
    const token = this.notes.token;
    if (token === undefined) return { status: 403, body: { error: `notes cannot be written here: ${this.notes.state.why}` } };
    if (!sameToken(request.headers[SESSION_TOKEN_HEADER], token))
      return {
        status: 403,
        body: {
          error: 'this page has no valid write token: open the address that `pmiyc view` printed when it started (its #token=... part), then write again',
        },
      };
    if (method === 'DELETE') return this.notes.remove(notes.run, notes.id!);
    const read = await jsonBody(request);
    if ('status' in read) return read;
    return notes.id === undefined ? this.notes.add(notes.run, read.body) : this.notes.update(notes.run, notes.id, read.body);
  }

  private page(): [string, string] {
    const nonce = randomBytes(18).toString('base64');
    return [viewPageHtml(nonce, this.script), pagePolicy(nonce)];
  }
}

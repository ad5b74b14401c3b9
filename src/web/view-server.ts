import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LeaseWorld } from '../runner/run-lease.js';
import { COMMON_HEADERS, isOwnHost, LocalHttpServer, pagePolicy, sendHtml, sendJson } from './local-http.js';
import { loadPageScript } from './page-script.js';
import { type ApiAnswer, ViewApi, type ViewSource } from './view-api.js';
import { viewPageHtml } from './view-page.js';

export interface ViewServerOptions {
  readonly source: ViewSource;
  /** 0 picks a free port. */
  readonly port: number;
  /** This process, host and clock, to tell live runs from crashed ones. */
  readonly world: () => LeaseWorld;
}

/**
 * The local server of `pmiyc view` (plain node:http): one page and a read-only JSON API over a store.
 * It listens on 127.0.0.1 only and answers only requests addressed to itself: a Host other than
 * 127.0.0.1 or localhost on its port (DNS rebinding), an Origin of another site, or a cross-site
 * fetch is refused, so no other page can read a run through the visitor's browser. Only GET is served.
 */
export class ViewServer {
  private constructor(
    private readonly http: LocalHttpServer,
    private readonly api: ViewApi,
    private readonly script: string,
  ) {}

  static async start(options: ViewServerOptions): Promise<ViewServer> {
    const api = new ViewApi(options.source, options.world);
    const script = await loadPageScript('view-app');
    let started: ViewServer | undefined;
    const http = await LocalHttpServer.start(options.port, (request, response) => started!.handle(request, response));
    started = new ViewServer(http, api, script);
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

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const answer = this.route(request);
    if (answer === 'page') sendHtml(response, ...this.page());
    else if (answer === 'nothing') response.writeHead(204, COMMON_HEADERS).end();
    else sendJson(response, answer.status, answer.body);
  }

  /** What a request gets: the page, nothing (a favicon), or a JSON answer. */
  private route(request: IncomingMessage): 'page' | 'nothing' | ApiAnswer {
    const refused = this.refusal(request);
    if (refused) return { status: 403, body: { error: refused } };
    if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405, body: { error: 'pmiyc view is read-only: only GET is served' } };
    const url = new URL(request.url ?? '/', this.url);
    if (url.pathname === '/') return 'page';
    if (url.pathname === '/favicon.ico') return 'nothing';
    if (!url.pathname.startsWith('/api/')) return { status: 404, body: { error: 'not found: the viewer is at /' } };
    return this.api.answer(url.pathname, url.searchParams);
  }

  private page(): [string, string] {
    const nonce = randomBytes(18).toString('base64');
    return [viewPageHtml(nonce, this.script), pagePolicy(nonce)];
  }
}

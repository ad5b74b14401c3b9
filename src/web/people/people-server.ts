import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBoundedJson } from '../../domain/bounded-json.js';
import type { PeopleStudy } from '../../studies/people/people-study.js';
import { hashToken, looksLikeToken, tokenMatches } from '../server/link-tokens.js';
import { COMMON_HEADERS, isOwnHost, LocalHttpServer, pagePolicy, sendHtml, sendJson } from '../server/local-http.js';
import { loadPageScript } from '../server/page-script.js';
import { RateLimiter } from '../server/rate-limiter.js';
import { peopleAdminHtml } from './people-admin-page.js';
import { inviteParticipant, LINK_AREAS } from './people-links.js';
import { peoplePageHtml } from './people-page.js';

const MAX_BODY_BYTES = 16 * 1024;
/**
 * Requests a minute: per link (a page polls once a second while the other side writes) and per client
 * address (behind a reverse proxy every participant has the proxy's address: room for about 100 at once).
 */
const DEFAULT_LIMITS = { perTokenPerMinute: 240, perAddressPerMinute: 6000 };
const SWEEP_MS = 5_000;

export interface PeopleServerOptions {
  readonly study: PeopleStudy;
  readonly port: number;
  /** Where to listen: 127.0.0.1 unless the command was given --host. */
  readonly host?: string;
  /** The address participants use when the server is behind a reverse proxy (its host is accepted in Host and Origin). */
  readonly publicUrl?: string;
  /** The open link's token hash and how many it admits at most (`--open N`). */
  readonly openLink?: { readonly tokenHash: string; readonly capacity: number };
  /** The admin pages' token: made afresh by each server, never stored. */
  readonly adminToken: string;
  /** The clock of rate limits (tests pass their own). */
  readonly nowMs?: () => number;
  /** Requests a minute per link and per client address (defaults above; a benchmark raises them). */
  readonly limits?: { readonly perTokenPerMinute: number; readonly perAddressPerMinute: number };
}

type Route =
  | { readonly kind: 'participant'; readonly participantId: string; readonly action: string | undefined }
  | { readonly kind: 'join'; readonly action: string | undefined }
  | { readonly kind: 'admin' }
  | { readonly kind: 'favicon' }
  | { readonly kind: 'none' };

/**
 * The study server of `pmiyc people serve` (plain node:http). Every path but a favicon holds a
 * secret: a participant's link (`/p/<token>`, which reaches that participant's conversation and
 * nothing else), the open link (`/join/<token>`) or the admin token (`/admin/<token>`); anything else
 * is a 404, the same for a wrong token as for a wrong path, so there is nothing to list or probe. Host
 * and Origin must name this server (loopback, or the --public-url's host), POSTs carry small JSON
 * bodies, each link and each client address is rate limited, pages run only their own nonce'd script,
 * and no model name, key or config is ever sent to a participant.
 */
export class PeopleServer {
  private readonly perToken: RateLimiter;
  private readonly perAddress: RateLimiter;
  private readonly sweep: ReturnType<typeof setInterval>;

  private constructor(
    private readonly http: LocalHttpServer,
    private readonly options: PeopleServerOptions,
    private readonly script: string,
  ) {
    const limits = options.limits ?? DEFAULT_LIMITS;
    this.perToken = new RateLimiter(limits.perTokenPerMinute, 60_000, options.nowMs);
    this.perAddress = new RateLimiter(limits.perAddressPerMinute, 60_000, options.nowMs);
    this.sweep = setInterval(() => options.study.sweep(), SWEEP_MS);
    this.sweep.unref();
  }

  static async start(options: PeopleServerOptions): Promise<PeopleServer> {
    const script = await loadPageScript('people-app');
    let started: PeopleServer | undefined;
    const http = await LocalHttpServer.start(options.port, (request, response) => started!.handle(request, response), options.host);
    started = new PeopleServer(http, options, script);
    return started;
  }

  get port(): number {
    return this.http.port;
  }

  /** Where links point: the public URL when there is one, else this server's own address. */
  get baseUrl(): string {
    const base = this.options.publicUrl ?? this.http.url;
    return base.endsWith('/') ? base : `${base}/`;
  }

  get url(): string {
    return this.http.url;
  }

  /** The full address of a link's path (`p/<token>`, people-links.ts). */
  linkOf(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.http.close();
  }

  private hostNames(): string[] {
    const names = [`${this.http.host}:${this.port}`];
    if (this.options.publicUrl) names.push(new URL(this.options.publicUrl).host);
    return names;
  }

  private originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return false;
    if (this.options.publicUrl && origin === new URL(this.options.publicUrl).origin) return true;
    return origin.startsWith('http://') && isOwnHost(origin.slice('http://'.length), this.port, [`${this.http.host}:${this.port}`]);
  }

  private refusal(request: IncomingMessage): string | undefined {
    if (!isOwnHost(request.headers.host, this.port, this.hostNames())) return 'this server answers only at its own address';
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'requests from other sites are refused';
    if (request.method === 'POST' && !this.originAllowed(request.headers.origin)) return 'requests from other sites are refused';
    if (request.headers.origin !== undefined && !this.originAllowed(request.headers.origin)) return 'requests from other sites are refused';
    return undefined;
  }

  private route(path: string): Route {
    const parts = path.split('/').slice(1);
    if (path === '/favicon.ico') return { kind: 'favicon' };
    const [area, token, action, ...rest] = parts;
    if (rest.length > 0 || token === undefined || !looksLikeToken(token)) return { kind: 'none' };
    if (area === LINK_AREAS.participant) {
      const participantId = this.options.study.participantOf(hashToken(token));
      return participantId === undefined ? { kind: 'none' } : { kind: 'participant', participantId, action };
    }
    if (area === LINK_AREAS.join && this.options.openLink && tokenMatches(token, this.options.openLink.tokenHash)) return { kind: 'join', action };
    if (area === LINK_AREAS.admin && action === undefined && tokenMatches(token, hashToken(this.options.adminToken))) return { kind: 'admin' };
    return { kind: 'none' };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = request.socket.remoteAddress ?? 'unknown';
    const wait = this.perAddress.take(address);
    if (wait > 0) return this.tooMany(response, wait);
    const refused = this.refusal(request);
    if (refused) return sendJson(response, 403, { error: refused });
    const path = new URL(request.url ?? '/', 'http://server.invalid').pathname;
    const route = this.route(path);
    const method = request.method ?? 'GET';
    if (route.kind === 'favicon') return void response.writeHead(204, COMMON_HEADERS).end();
    if (route.kind === 'none') return sendJson(response, 404, { error: 'not found' });
    const tokenWait = this.perToken.take(path.split('/')[2]!);
    if (tokenWait > 0) return this.tooMany(response, tokenWait);
    if (route.kind === 'admin') {
      if (method !== 'GET') return sendJson(response, 405, { error: 'the admin page is read-only' });
      const nonce = randomBytes(18).toString('base64');
      return sendHtml(response, peopleAdminHtml(nonce, this.options.study.overview()), pagePolicy(nonce));
    }
    if (method === 'GET' && route.action === undefined) return this.sendPage(response, route.kind);
    if (route.kind === 'join') return method === 'POST' && route.action === 'start' ? this.join(response) : sendJson(response, 404, { error: 'not found' });
    const study = this.options.study;
    const id = route.participantId;
    if (method === 'GET' && route.action === 'state') return sendJson(response, 200, study.view(id));
    if (method !== 'POST') return sendJson(response, 404, { error: 'not found' });
    const body = await this.readJson(request, response);
    if (body === undefined) return;
    const answer =
      route.action === 'consent'
        ? study.consent(id)
        : route.action === 'answer'
          ? await study.answer(id, { turnIndex: body['turnIndex'], message: body['message'], score: body['score'] })
          : route.action === 'follow-up'
            ? study.followUp(id, body['score'])
            : route.action === 'withdraw'
              ? study.withdraw(id)
              : undefined;
    if (answer === undefined) return sendJson(response, 404, { error: 'not found' });
    if (!answer.ok) {
      if (answer.status === 503) response.setHeader('retry-after', '1');
      return sendJson(response, answer.status, { error: answer.problem });
    }
    sendJson(response, 200, study.view(id));
  }

  private sendPage(response: ServerResponse, mode: 'participant' | 'join'): void {
    const nonce = randomBytes(18).toString('base64');
    sendHtml(response, peoplePageHtml(nonce, mode, this.script), pagePolicy(nonce));
  }

  /** The open link admits one more participant (a new link of their own) while it has room. */
  private join(response: ServerResponse): void {
    const open = this.options.openLink!;
    if (this.options.study.participantCount >= open.capacity) {
      sendJson(response, 410, { error: 'this study is full: thank you for your interest' });
      return;
    }
    sendJson(response, 200, { link: `/${inviteParticipant(this.options.study).path}` });
  }

  private tooMany(response: ServerResponse, waitMs: number): void {
    response.setHeader('retry-after', String(Math.ceil(waitMs / 1000)));
    sendJson(response, 429, { error: 'too many requests: wait a moment' });
  }

  /** The request's JSON object, or undefined once a refusal has been sent. */
  private async readJson(request: IncomingMessage, response: ServerResponse): Promise<Record<string, unknown> | undefined> {
    if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) {
      sendJson(response, 415, { error: 'send JSON' });
      return undefined;
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      sendJson(response, 413, { error: 'the request is too large' });
      request.resume();
      return undefined;
    }
    const text = await readBody(request);
    if (text === undefined) {
      sendJson(response, 413, { error: 'the request is too large' });
      return undefined;
    }
    const reading = parseBoundedJson(text === '' ? '{}' : text);
    const value = reading.ok ? reading.value : undefined;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    sendJson(response, 400, { error: 'send a JSON object' });
    return undefined;
  }
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
